"""Builds a house from a spec of boxes, renders a 3D floor plan and a front view, and checks the scene.

Run by render_plan_3d as: blender -b --factory-startup --python-exit-code 1 --python house_scene.py -- SPEC RESULT
Prints 'PROGRESS <percent> <what>' lines; writes the result (checks, views) as JSON to RESULT.
"""
import json
import math
import sys

import bpy
from mathutils import Vector

COLOURS = {
    "wall": (0.93, 0.91, 0.86, 1), "roof": (0.55, 0.27, 0.2, 1), "glass": (0.45, 0.7, 0.95, 1),
    "door": (0.45, 0.3, 0.18, 1), "front_door": (0.6, 0.12, 0.1, 1), "step": (0.7, 0.7, 0.7, 1),
    "porch": (0.6, 0.6, 0.6, 1), "terrace": (0.7, 0.66, 0.6, 1), "bath": (0.75, 0.88, 0.9, 1),
    "kitchen": (0.95, 0.85, 0.6, 1), "bedroom": (0.82, 0.72, 0.6, 1), "dress": (0.8, 0.75, 0.68, 1),
    "passage": (0.85, 0.85, 0.8, 1), "lounge": (0.9, 0.8, 0.65, 1), "drawing": (0.88, 0.78, 0.62, 1),
    "dining": (0.86, 0.8, 0.66, 1), "stairs": (0.75, 0.75, 0.75, 1), "ground": (0.55, 0.68, 0.45, 1),
}


def progress(percent, what):
    print(f"PROGRESS {percent} {what}", flush=True)


def material(name, cache={}):
    if name not in cache:
        mat = bpy.data.materials.new(name)
        mat.diffuse_color = COLOURS.get(name, (0.8, 0.8, 0.8, 1))
        cache[name] = mat
    return cache[name]


def add_box(box):
    mesh = bpy.data.meshes.new(box["name"])
    x, y, z = box["at"]
    w, d, h = box["size"]
    verts = [(x + dx * w, y + dy * d, z + dz * h) for dz in (0, 1) for dy in (0, 1) for dx in (0, 1)]
    faces = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    mesh.from_pydata(verts, [], faces)
    mesh.materials.append(material(box["material"]))
    obj = bpy.data.objects.new(box["name"], mesh)
    obj["kind"] = box["kind"]
    if "of" in box:
        obj["of"] = box["of"]
    bpy.context.scene.collection.objects.link(obj)
    return obj


def world_box(objects):
    points = [obj.matrix_world @ Vector(corner) for obj in objects for corner in obj.bound_box]
    low = Vector((min(p.x for p in points), min(p.y for p in points), min(p.z for p in points)))
    high = Vector((max(p.x for p in points), max(p.y for p in points), max(p.z for p in points)))
    return low, high


def aim(camera, direction, objects, aspect, margin=1.12):
    """Orthographic camera looking along `direction`, framing every object with a margin."""
    direction = Vector(direction).normalized()
    quat = direction.to_track_quat("-Z", "Y")
    camera.rotation_euler = quat.to_euler()
    right, up = quat @ Vector((1, 0, 0)), quat @ Vector((0, 1, 0))
    low, high = world_box(objects)
    corners = [Vector((x, y, z)) for x in (low.x, high.x) for y in (low.y, high.y) for z in (low.z, high.z)]
    xs, ys = [c.dot(right) for c in corners], [c.dot(up) for c in corners]
    centre = (low + high) / 2
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    camera.data.type = "ORTHO"
    camera.data.ortho_scale = max(span_x, span_y * aspect) * margin
    mid = right * ((max(xs) + min(xs)) / 2) + up * ((max(ys) + min(ys)) / 2)
    depth = centre.dot(direction)
    camera.location = mid + direction * (depth - (high - low).length * 2)
    camera.data.clip_end = (high - low).length * 6


def setup_render(scene, width, height, mask_dir):
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.display.shading.light = "STUDIO"
    scene.display.shading.color_type = "MATERIAL"
    scene.display.shading.show_shadows = True
    scene.display.shading.show_cavity = True
    # One anti-aliased pass instead of eight samples: the render is CPU-bound (llvmpipe) here.
    scene.display.render_aa = "FXAA"
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = True
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.use_nodes = True
    tree = scene.node_tree
    tree.nodes.clear()
    layers = tree.nodes.new("CompositorNodeRLayers")
    over = tree.nodes.new("CompositorNodeAlphaOver")
    over.inputs[1].default_value = (0.86, 0.9, 0.95, 1)
    tree.links.new(layers.outputs["Image"], over.inputs[2])
    composite = tree.nodes.new("CompositorNodeComposite")
    tree.links.new(over.outputs[0], composite.inputs[0])
    masks = tree.nodes.new("CompositorNodeOutputFile")
    masks.base_path = mask_dir
    masks.format.file_format = "PNG"
    masks.format.color_mode = "BW"
    tree.links.new(layers.outputs["Alpha"], masks.inputs[0])
    return masks


def visible(scene, camera, target, point):
    """Whether a ray along the camera's view, through `point`, meets `target` first."""
    direction = camera.matrix_world.to_quaternion() @ Vector((0, 0, -1))
    origin = point - direction * 200
    hit, _, _, _, obj, _ = scene.ray_cast(bpy.context.evaluated_depsgraph_get(), origin, direction)
    return bool(hit and obj is not None and obj.name == target.name)


def check(name, passed, detail):
    return {"name": name, "passed": bool(passed), "detail": detail}


def scene_checks(spec, objects):
    by_kind = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], []).append(obj)
    floors = {obj["of"]: obj for obj in by_kind.get("floor", [])}
    missing = [room["name"] for room in spec["rooms"] if room["id"] not in floors]
    off = []
    for room in spec["rooms"]:
        floor = floors.get(room["id"])
        if floor is not None:
            low, high = world_box([floor])
            if abs(low.x - room["x"]) > 0.01 or abs(high.y - low.y - room["d"]) > 0.01:
                off.append(room["name"])
    glass = {obj["of"]: obj for obj in by_kind.get("glass", [])}
    no_glass = []
    for window in spec["windows"]:
        pane = glass.get(window["id"])
        if pane is None:
            no_glass.append(window["id"])
            continue
        low, high = world_box([pane])
        c = Vector(window["centre"])
        if not (low.x - 0.05 <= c.x <= high.x + 0.05 and low.y - 0.05 <= c.y <= high.y + 0.05 and low.z <= c.z <= high.z):
            no_glass.append(window["id"])
    doors = {obj["of"]: obj for obj in by_kind.get("door", [])}
    no_door = [door["id"] for door in spec["doors"] if door["id"] not in doors]
    front = bpy.data.objects.get("Front door")
    front_spec = next((door for door in spec["doors"] if door["front"]), None)
    walls = by_kind.get("wall", [])
    bad_walls = [obj.name for obj in walls if min(obj.dimensions) <= 0]
    plot_ok = True
    low, high = world_box(objects)
    if low.x < -0.3 or low.y < -0.3 or high.x > spec["plot"]["width"] + 0.3 or high.y > spec["plot"]["depth"] + 0.3:
        plot_ok = False
    short = []
    for flight in spec["stairs"]:
        steps = [obj for obj in by_kind.get("step", []) if obj["of"] == flight["room"]]
        top = max((world_box([step])[1].z for step in steps), default=0)
        if abs(top - flight["top"]) > 0.05:
            short.append(f"{flight['room']} reaches {top:.2f} m, not {flight['top']:.2f}")
    per_level = spec["storeyHeight"]
    return [
        check("scene_room_floors", not missing and not off, f"every room has its floor: {len(floors)} of {len(spec['rooms'])}" + (f"; missing {missing}, misplaced {off}" if missing or off else "")),
        check("scene_window_glass", not no_glass, f"glass in every window: {len(spec['windows']) - len(no_glass)} of {len(spec['windows'])}" + (f"; none in {no_glass}" if no_glass else "")),
        check("scene_front_door", front is not None and front_spec is not None and (Vector(front_spec["centre"]) - (world_box([front])[0] + world_box([front])[1]) / 2).length < 0.3,
              "the front door is in, at its place in the plan" if front is not None else "no front door in the scene"),
        check("scene_doors", not no_door, f"a door leaf in every doorway: {len(doors)} of {len(spec['doors'])}" + (f"; missing {no_door}" if no_door else "")),
        check("scene_walls", walls and not bad_walls, f"{len(walls)} wall pieces, every one a solid box"),
        check("scene_stairs", spec["stairs"] and not short,
              f"the stairs rise {per_level / 0.3048:.1f} ft to the next floor on every storey" if not short else "; ".join(short)),
        check("scene_on_plot", plot_ok, f"the model spans {high.x - low.x:.2f} x {high.y - low.y:.2f} m on a {spec['plot']['width']:.2f} x {spec['plot']['depth']:.2f} m plot"),
    ]


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    spec_path, result_path = argv[0], argv[1]
    with open(spec_path) as handle:
        job = json.load(handle)
    spec = job["spec"]
    progress(5, "clearing the scene")
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    progress(10, f"building {len(spec['boxes'])} boxes")
    objects = [add_box(box) for box in spec["boxes"]]
    ground = add_box({"name": "Ground", "kind": "ground", "material": "ground", "at": [-3, -6, -0.2], "size": [spec["plot"]["width"] + 6, spec["plot"]["depth"] + 9, 0.04]})
    ground.hide_render = True
    checks = scene_checks(spec, objects)
    progress(40, "scene checked")
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    scene.camera = camera
    width, height = job["width"], job["height"]
    masks = setup_render(scene, width, height, job["mask_dir"])
    roof = bpy.data.objects.get("Roof")
    views = {}
    front = bpy.data.objects.get("Front door")
    top = max(box["at"][2] + box["size"][2] for box in spec["boxes"] if box["kind"] != "roof")
    views_wanted = (("plan3d", (0.35, 0.75, -1.15), False), ("front", tuple(job["front_direction"]), True))
    for index, (view, direction, roof_on) in enumerate(views_wanted):
        for obj in objects:
            # The 3D floor plan is a cutaway: no roof, and only the ground storey.
            upper = world_box([obj])[0].z >= spec["storeyHeight"] - 0.01
            obj.hide_render = not roof_on and (obj is roof or upper)
        shown = [obj for obj in objects if not obj.hide_render]
        aim(camera, direction, shown, width / height)
        masks.file_slots[0].path = f"{view}_mask_"
        scene.render.filepath = job["views"][view]
        progress(45 + index * 25, f"rendering the {view} view")
        bpy.ops.render.render(write_still=True)
        views[view] = {"mask": f"{job['mask_dir']}/{view}_mask_{scene.frame_current:04d}.png"}
        if view == "front" and front is not None:
            low, high = world_box([front])
            views[view]["front_door_visible"] = visible(scene, camera, front, (low + high) / 2)
    progress(95, "saving the model")
    bpy.ops.wm.save_as_mainfile(filepath=job["blend"], check_existing=False)
    with open(result_path, "w") as handle:
        json.dump({"checks": checks, "views": views, "objects": len(objects), "top": top, "blender": bpy.app.version_string}, handle)
    progress(100, "done")


main()
