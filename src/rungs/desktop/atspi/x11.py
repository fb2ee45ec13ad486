"""Keyboard focus, window titles and key codes through Xlib (ctypes): no window manager runs on
Lift's display, so the bridge gives the keyboard to a window itself."""
import ctypes

from bus import BridgeError


class XWindowAttributes(ctypes.Structure):
    _fields_ = [('x', ctypes.c_int), ('y', ctypes.c_int), ('width', ctypes.c_int), ('height', ctypes.c_int),
                ('border_width', ctypes.c_int), ('depth', ctypes.c_int), ('visual', ctypes.c_void_p),
                ('root', ctypes.c_ulong), ('c_class', ctypes.c_int), ('bit_gravity', ctypes.c_int),
                ('win_gravity', ctypes.c_int), ('backing_store', ctypes.c_int), ('backing_planes', ctypes.c_ulong),
                ('backing_pixel', ctypes.c_ulong), ('save_under', ctypes.c_int), ('colormap', ctypes.c_ulong),
                ('map_installed', ctypes.c_int), ('map_state', ctypes.c_int), ('all_event_masks', ctypes.c_long),
                ('your_event_mask', ctypes.c_long), ('do_not_propagate_mask', ctypes.c_long),
                ('override_redirect', ctypes.c_int), ('screen', ctypes.c_void_p)]


IS_VIEWABLE = 2
X_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


@X_ERROR_HANDLER
def ignore_x_error(_display, _event):
    return 0  # a window that went away between two requests: not a reason to exit


class X11:
    """Keyboard focus and key codes through Xlib (no window manager runs on Lift's display)."""

    def __init__(self):
        self.lib = ctypes.cdll.LoadLibrary('libX11.so.6')
        self.lib.XSetErrorHandler(ignore_x_error)
        self.lib.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong,
                                                  ctypes.POINTER(XWindowAttributes)]
        self.lib.XOpenDisplay.restype = ctypes.c_void_p
        self.lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.lib.XDefaultRootWindow.restype = ctypes.c_ulong
        self.lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.lib.XInternAtom.restype = ctypes.c_ulong
        self.lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.lib.XKeysymToKeycode.restype = ctypes.c_ubyte
        self.lib.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.lib.XStringToKeysym.restype = ctypes.c_ulong
        self.lib.XStringToKeysym.argtypes = [ctypes.c_char_p]
        self.lib.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                                        ctypes.POINTER(ctypes.c_ulong),
                                        ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                        ctypes.POINTER(ctypes.c_uint)]
        self.lib.XGetWindowProperty.argtypes = [
            ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int,
            ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte))]
        self.lib.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
        self.lib.XRaiseWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.lib.XGetInputFocus.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulong),
                                            ctypes.POINTER(ctypes.c_int)]
        self.lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.XFree.argtypes = [ctypes.c_void_p]
        self.lib.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
        self.display = self.lib.XOpenDisplay(None)
        if not self.display:
            raise BridgeError('no_display', 'cannot open the X display named by DISPLAY')
        self.root = self.lib.XDefaultRootWindow(self.display)
        self.pid_atom = self.lib.XInternAtom(self.display, b'_NET_WM_PID', 0)

    def keycode(self, keysym_name):
        keysym = self.lib.XStringToKeysym(keysym_name.encode())
        if keysym == 0 and len(keysym_name) == 1:
            keysym = ord(keysym_name)
        code = self.lib.XKeysymToKeycode(self.display, keysym) if keysym else 0
        if not code:
            raise BridgeError('bad_key', f'no key on this keyboard makes "{keysym_name}"')
        return code

    def windows_of(self, pid):
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        self.lib.XQueryTree(self.display, self.root, ctypes.byref(root), ctypes.byref(parent),
                            ctypes.byref(children), ctypes.byref(count))
        found = []
        for index in range(count.value):
            window = children[index]
            if self.window_pid(window) == pid and self.viewable(window):
                found.append(window)
        if children:
            self.lib.XFree(children)
        return found

    def viewable(self, window):
        attributes = XWindowAttributes()
        if not self.lib.XGetWindowAttributes(self.display, window, ctypes.byref(attributes)):
            return False
        return attributes.map_state == IS_VIEWABLE

    def window_pid(self, window):
        actual, fmt = ctypes.c_ulong(), ctypes.c_int()
        items, after = ctypes.c_ulong(), ctypes.c_ulong()
        data = ctypes.POINTER(ctypes.c_ubyte)()
        status = self.lib.XGetWindowProperty(self.display, window, self.pid_atom, 0, 1, 0, 6,
                                             ctypes.byref(actual), ctypes.byref(fmt), ctypes.byref(items),
                                             ctypes.byref(after), ctypes.byref(data))
        pid = None
        if status == 0 and items.value == 1 and data:
            pid = ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))[0]
        if data:
            self.lib.XFree(data)
        return pid

    def focused(self):
        window, revert = ctypes.c_ulong(), ctypes.c_int()
        self.lib.XGetInputFocus(self.display, ctypes.byref(window), ctypes.byref(revert))
        return window.value

    def title_of(self, window):
        name = ctypes.c_char_p()
        if not self.lib.XFetchName(self.display, window, ctypes.byref(name)) or not name.value:
            return ''
        title = name.value.decode('utf-8', 'replace')
        return title

    def focus(self, pid, title=None):
        """Gives the keyboard to the window of `pid` with that title (else its topmost one)."""
        focused = self.focused()
        if title and self.window_pid(focused) == pid and self.title_of(focused) == title:
            return True  # already there: three requests to X rather than a walk of every window
        windows = self.windows_of(pid)
        if not windows:
            return False
        titled = [window for window in windows if title and self.title_of(window) == title]
        # The last child of the root is the top of the stacking order, usually the one on screen.
        window = (titled or windows)[-1]
        if focused == window:
            return True
        self.lib.XRaiseWindow(self.display, window)
        self.lib.XSetInputFocus(self.display, window, 2, 0)
        self.lib.XSync(self.display, 0)
        return True
