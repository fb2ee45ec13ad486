#!/usr/bin/python3
"""Lift's door into LibreOffice: the office suite's own scripting interface (UNO).

Run by Debian's /usr/bin/python3 (where python3-uno lives). It connects to one soffice
process over a UNO pipe, then reads one JSON job per line on stdin and answers one JSON
line on stdout. It never starts or kills soffice: the Node worker owns that process.

Jobs: workbook (recalculate, scan for error values, read back cells, add charts, save,
export PDF), deck (export PDF, measure the text each box needs), report (update the
contents, measure tables, save, export PDF), convert (any format in, any format out).
"""

import json
import os
import signal
import sys
import time

import uno
from com.sun.star.awt import Rectangle, Size
from com.sun.star.beans import PropertyValue
from com.sun.star.table import CellRangeAddress

FORMULA_RESULT_ERROR = 4
HUNDREDTH_MM_PER_PT = 2540 / 72


class Clock:
    """Milliseconds spent in each phase of a job, reported back with its result."""

    def __init__(self):
        self.laps = {}
        self.last = time.monotonic()

    def lap(self, name):
        now = time.monotonic()
        self.laps[name] = round((now - self.last) * 1000, 1)
        self.last = now


def prop(name, value):
    value_holder = PropertyValue()
    value_holder.Name = name
    value_holder.Value = value
    return value_holder


def url(path):
    return uno.systemPathToFileUrl(path)


def connect(pipe, seconds):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    until = time.monotonic() + seconds
    while True:
        try:
            remote = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return remote.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", remote)
        except Exception:
            if time.monotonic() > until:
                raise
            time.sleep(0.05)


def load(desktop, path):
    options = (prop("Hidden", True), prop("MacroExecutionMode", 0), prop("UpdateDocMode", 0), prop("ReadOnly", True))
    if path.lower().endswith((".html", ".htm")):
        # Open web pages as ordinary text documents (not Writer/Web), so they convert like any other.
        options += (prop("FilterName", "HTML (StarWriter)"),)
    document = desktop.loadComponentFromURL(url(path), "_blank", 0, options)
    if document is None:
        raise RuntimeError("LibreOffice could not open %s" % path)
    return document


def store(document, path, filter_name):
    document.storeToURL(url(path), (prop("FilterName", filter_name), prop("Overwrite", True)))


def column_name(index):
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def used_area(sheet):
    cursor = sheet.createCursor()
    cursor.gotoStartOfUsedArea(False)
    cursor.gotoEndOfUsedArea(True)
    return cursor.getRangeAddress()


def scan_errors(sheet):
    """Every formula cell whose result is an error value (#DIV/0!, #REF!, #NAME?, Err:5xx)."""
    found = []
    ranges = sheet.queryFormulaCells(FORMULA_RESULT_ERROR)
    cells = ranges.getCells().createEnumeration()
    while cells.hasMoreElements():
        cell = cells.nextElement()
        address = cell.getCellAddress()
        found.append({"cell": "%s%d" % (column_name(address.Column), address.Row + 1), "value": cell.getString()})
    return found


def read_sheet(sheet):
    area = used_area(sheet)
    rows = sheet.getCellRangeByPosition(area.StartColumn, area.StartRow, area.EndColumn, area.EndRow).getDataArray()
    return {"start": [area.StartColumn, area.StartRow], "rows": [list(row) for row in rows]}


def add_chart(document, chart):
    sheets = document.getSheets()
    sheet = sheets.getByName(chart["sheet"])
    source = CellRangeAddress()
    source.Sheet = sheets.getElementNames().index(chart["source_sheet"])
    source.StartColumn, source.StartRow, source.EndColumn, source.EndRow = chart["range"]
    anchor = sheet.getCellByPosition(chart["anchor"][0], chart["anchor"][1]).getPropertyValue("Position")
    box = Rectangle()
    box.X, box.Y, box.Width, box.Height = anchor.X, anchor.Y, 16000, 8500
    charts = sheet.getCharts()
    charts.addNewByName(chart["name"], box, (source,), True, True)
    embedded = charts.getByName(chart["name"]).getEmbeddedObject()
    kind = chart["type"]
    service = {"pie": "PieDiagram", "line": "LineDiagram"}.get(kind, "BarDiagram")
    diagram = embedded.createInstance("com.sun.star.chart." + service)
    embedded.setDiagram(diagram)
    if kind == "bar":
        embedded.getDiagram().setPropertyValue("Vertical", True)
    embedded.setPropertyValue("HasMainTitle", True)
    embedded.getTitle().setPropertyValue("String", chart["title"])


def workbook(desktop, job):
    clock = Clock()
    document = load(desktop, job["src"])
    clock.lap("load")
    try:
        document.calculateAll()
        clock.lap("recalculate")
        sheets = document.getSheets()
        result = {"sheets": [], "errors": []}
        for index in range(sheets.getCount()):
            sheet = sheets.getByIndex(index)
            name = sheet.getName()
            for error in scan_errors(sheet):
                error["sheet"] = name
                result["errors"].append(error)
            result["sheets"].append(dict(read_sheet(sheet), name=name))
        clock.lap("scan_and_read")
        for chart in job.get("charts", []):
            add_chart(document, chart)
        clock.lap("charts")
        store(document, job["xlsx"], "Calc MS Excel 2007 XML")
        clock.lap("save_xlsx")
        store(document, job["pdf"], "calc_pdf_Export")
        clock.lap("export_pdf")
    finally:
        document.close(True)
    result["ms"] = clock.laps
    return result


def points(hundredths_mm):
    return round(hundredths_mm / HUNDREDTH_MM_PER_PT, 1)


def measure_shape(shape):
    """The height the shape's text needs, measured by LibreOffice's own text layout."""
    size = shape.getSize()
    grow, fit = shape.getPropertyValue("TextAutoGrowHeight"), shape.getPropertyValue("TextFitToSize")
    shape.setPropertyValue("TextFitToSize", uno.Enum("com.sun.star.drawing.TextFitToSizeType", "NONE"))
    shape.setPropertyValue("TextAutoGrowHeight", True)
    needed = shape.getSize().Height
    shape.setPropertyValue("TextAutoGrowHeight", grow)
    shape.setPropertyValue("TextFitToSize", fit)
    shape.setSize(Size(size.Width, size.Height))
    return {"name": shape.getName(), "box_pt": points(size.Height), "needs_pt": points(needed),
            "text": shape.getString()[:60]}


def deck(desktop, job):
    document = load(desktop, job["src"])
    try:
        store(document, job["pdf"], "impress_pdf_Export")
        pages = document.getDrawPages()
        slides = []
        for index in range(pages.getCount()):
            page = pages.getByIndex(index)
            boxes = []
            for position in range(page.getCount()):
                shape = page.getByIndex(position)
                if shape.supportsService("com.sun.star.drawing.Text") and shape.getString().strip():
                    boxes.append(measure_shape(shape))
            slides.append({"boxes": boxes})
        return {"slides": slides}
    finally:
        document.close(True)


def report(desktop, job):
    document = load(desktop, job["src"])
    try:
        indexes = document.getDocumentIndexes()
        for index in range(indexes.getCount()):
            indexes.getByIndex(index).update()
        document.refresh()
        first_page = document.getText().createTextCursor().getPropertyValue("PageStyleName")
        page_style = document.getStyleFamilies().getByName("PageStyles").getByName(first_page)
        text_width = page_style.Width - page_style.LeftMargin - page_style.RightMargin
        tables = document.getTextTables()
        measured = []
        for index in range(tables.getCount()):
            table = tables.getByIndex(index)
            measured.append({"name": table.getName(), "left": table.LeftMargin, "width": table.Width,
                             "text_width": text_width})
        store(document, job["docx"], "MS Word 2007 XML")
        store(document, job["pdf"], "writer_pdf_Export")
        pages = document.getCurrentController().getPropertyValue("PageCount")
        return {"indexes": indexes.getCount(), "tables": measured, "pages": pages}
    finally:
        document.close(True)


FAMILIES = (
    ("com.sun.star.text.TextDocument", "writer"),
    ("com.sun.star.sheet.SpreadsheetDocument", "calc"),
    ("com.sun.star.presentation.PresentationDocument", "impress"),
    ("com.sun.star.drawing.DrawingDocument", "draw"),
)


def family_of(document):
    for service, family in FAMILIES:
        if document.supportsService(service):
            return family
    return "unknown"


def text_of(document, family):
    if family == "writer":
        return document.getText().getString()
    if family == "calc":
        sheets = document.getSheets()
        parts = []
        for index in range(sheets.getCount()):
            for row in read_sheet(sheets.getByIndex(index))["rows"]:
                parts.extend(str(value) for value in row if value != "")
        return " ".join(parts)
    pages = document.getDrawPages()
    parts = []
    for index in range(pages.getCount()):
        page = pages.getByIndex(index)
        for position in range(page.getCount()):
            shape = page.getByIndex(position)
            if shape.supportsService("com.sun.star.drawing.Text"):
                parts.append(shape.getString())
    return " ".join(parts)


def inspect(desktop, job):
    document = load(desktop, job["src"])
    try:
        family = family_of(document)
        return {"family": family, "text": text_of(document, family)[: job.get("chars", 4000)]}
    finally:
        document.close(True)


def convert(desktop, job):
    document = load(desktop, job["src"])
    try:
        family = family_of(document)
        filter_name = job["filters"].get(family)
        if filter_name is None:
            return {"family": family, "converted": False}
        source_text = text_of(document, family)[: job.get("chars", 4000)]
        store(document, job["out"], filter_name)
        return {"family": family, "converted": True, "filter": filter_name, "text": source_text}
    finally:
        document.close(True)


OPERATIONS = {"workbook": workbook, "deck": deck, "report": report, "convert": convert, "inspect": inspect}


def end_office(group, profile_dir):
    """Ends the office process when the worker that started it is gone (stdin closed)."""
    marker = ("-env:UserInstallation=file://%s\0" % profile_dir).encode()
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as command_line:
                if marker in command_line.read():
                    os.kill(int(entry), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def main():
    pipe, seconds, group, profile_dir = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    try:
        desktop = connect(pipe, seconds)
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            job = json.loads(line)
            try:
                answer = {"id": job["id"], "ok": True, "result": OPERATIONS[job["op"]](desktop, job)}
            except Exception as error:  # a bad document must not end the bridge; the job fails with the reason
                answer = {"id": job["id"], "ok": False, "message": "%s: %s" % (type(error).__name__, error)}
            print(json.dumps(answer), flush=True)
    finally:
        end_office(group, profile_dir)


if __name__ == "__main__":
    main()
