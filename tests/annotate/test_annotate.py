"""`pkc annotate` (issue 13): the page of examples/nstream.py, of
kernels.py (a reduce, a scan, one deliberate error, HTML in the source) and
of workload.py (@pk.main, a @pk.function, the workunit main runs) as
headless Chromium parses them (`--dump-dom`): kernel rows carry their pattern
class, a body line's <details> holds its C++, the error stands under its
line, and text is escaped (a '<' in the source stays text).

Needs the Debian package chromium (scripts/setup.sh installs it); without
it the tests fail. Runs in about 5 s.
"""
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PKC = os.path.join(ROOT, "build", "bin", "pkc")
VOID = {"meta", "br", "hr", "img", "input", "link", "wbr"}


class Node:
    """An element of the dumped DOM: tag, attributes, children (Nodes and str)."""

    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def find(self, tag=None, cls=None):
        return [n for n in self.walk() if (tag is None or n.tag == tag) and
                (cls is None or cls in n.classes())]

    def next_element(self):
        """The next sibling element (text between them skipped)."""
        sibs = [c for c in self.parent.children if isinstance(c, Node)]
        i = sibs.index(self)
        return sibs[i + 1] if i + 1 < len(sibs) else None


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(html):
    b = TreeBuilder()
    b.feed(html)
    b.close()
    return b.root


def chromium_dom(page, profile):
    """The DOM Chromium builds from page, as HTML; None when chromium is missing."""
    exe = shutil.which("chromium")
    if not exe:
        return None
    out = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                          f"--user-data-dir={profile}", "--dump-dom", pathlib.Path(page).as_uri()],
                         capture_output=True, text=True, timeout=60)
    return out.stdout


class AnnotateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pkc-annotate-")
        cls.src, cls.rc, cls.out, cls.dom = {}, {}, {}, {}
        for name, path in (("nstream", os.path.join(ROOT, "examples", "nstream.py")),
                           ("kernels", os.path.join(HERE, "kernels.py")),
                           ("workload", os.path.join(HERE, "workload.py"))):
            cls.src[name] = os.path.join(cls.tmp, name + ".py")
            shutil.copy(path, cls.src[name])
        # nstream: the default page beside the source; kernels: -o
        cls.page = {"nstream": os.path.join(cls.tmp, "nstream.html"),
                    "kernels": os.path.join(cls.tmp, "out", "kernels page.html"),
                    "workload": os.path.join(cls.tmp, "workload.html")}
        os.mkdir(os.path.join(cls.tmp, "out"))
        for name in ("nstream", "kernels", "workload"):
            args = [PKC, "annotate", cls.src[name]]
            if name == "kernels":
                args += ["-o", cls.page[name]]
            p = subprocess.run(args, capture_output=True, text=True, timeout=60)
            cls.rc[name], cls.out[name] = p.returncode, p.stdout + p.stderr
            if os.path.exists(cls.page[name]):
                cls.dom[name] = chromium_dom(cls.page[name], os.path.join(cls.tmp, "profile"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def page_dom(self, name):
        self.assertTrue(os.path.exists(self.page[name]),
                        f"pkc annotate wrote no {self.page[name]}: {self.out[name]}")
        html = self.dom[name]
        if html is None:
            self.fail("chromium is not installed: run scripts/setup.sh (as root) to install it")
        self.assertIn("</html>", html, "chromium --dump-dom printed no page")
        return parse(html)

    def row(self, dom, line):
        rows = [n for n in dom.walk() if n.attrs.get("id") == f"L{line}"]
        self.assertEqual(len(rows), 1, f"one row for line {line}")
        return rows[0]

    def source_line(self, name, line):
        with open(self.src[name], encoding="utf-8") as f:
            return f.read().splitlines()[line - 1]

    def test_nstream(self):
        self.assertEqual(self.rc["nstream"], 0, self.out["nstream"])
        dom = self.page_dom("nstream")
        version = subprocess.run([PKC, "--version"], capture_output=True,
                                 text=True).stdout.split()[-1]
        header = dom.find("header")[0].text()
        self.assertIn("nstream.py", header)
        self.assertIn(f"pkc {version}", header)
        self.assertIn("1 for, 0 reduce, 0 scan", header)
        for line in (21, 22, 23, 24):  # decorator, def (2 lines), body
            self.assertIn("k-for", self.row(dom, line).classes(), f"line {line}")
        self.assertNotIn("k-for", self.row(dom, 25).classes())
        body = self.row(dom, 24)
        self.assertEqual(body.tag, "details")
        self.assertEqual(body.find("summary")[0].text().split(None, 1)[1].rstrip(),
                         self.source_line("nstream", 24).strip())
        cpp = [p.text() for p in body.find("pre")]
        self.assertTrue(any("A(i) += B(i) + scalar * C(i);" in c for c in cpp), cpp)
        self.assertEqual(self.row(dom, 27).tag, "div")  # host code: no C++
        note = self.row(dom, 47).next_element()
        self.assertEqual(note.classes(), ["d", "note"])
        self.assertIn("fused", note.text())

    def test_kernels_with_error(self):
        self.assertEqual(self.rc["kernels"], 1, self.out["kernels"])
        self.assertIn("dicts are not supported", self.out["kernels"])
        dom = self.page_dom("kernels")
        header = dom.find("header")[0].text()
        self.assertIn("1 for, 1 reduce, 1 scan", header)
        self.assertIn("1 error,", header)
        for line, pattern in ((5, "reduce"), (8, "reduce"), (11, "scan"), (16, "scan"),
                              (19, "for"), (21, "for")):
            self.assertIn("k-" + pattern, self.row(dom, line).classes(), f"line {line}")
        self.assertEqual(self.row(dom, 9).classes(), ["r"])
        dot = self.row(dom, 7)
        self.assertEqual(dot.tag, "details")
        self.assertIn("if (i < n && x(i) > 0.0) {", dot.find("pre")[0].text())
        self.assertIn("acc += x(i);", self.row(dom, 14).find("pre")[0].text())
        broken = self.row(dom, 21)
        self.assertEqual(broken.tag, "div")  # left out of the C++: it has the error
        diag = broken.next_element()
        self.assertEqual(diag.classes(), ["d", "error"])
        self.assertIn("21:9: dicts are not supported in kernels", diag.text())
        self.assertEqual(len(dom.find(cls="error")), 1)

    def test_every_kernel_line_has_its_cpp(self):
        """Each Python line of a kernel opens to the C++ it became, as the
        compiler reads the #line directives (issue 27): not only the lines a
        directive names (the body of an `if` was its condition's)."""
        dom = self.page_dom("kernels")
        for line, cpp in ((7, "if (i < n && x(i) > 0.0) {"), (8, "acc += x(i) * x(i);"),
                          (14, "acc += x(i);"), (15, "if (final) {"), (16, "out(i) = acc;")):
            row = self.row(dom, line)
            self.assertEqual(row.tag, "details", f"line {line}")
            pres = [p.text() for p in row.find("pre")]
            self.assertTrue(pres and pres[0].startswith(cpp), f"line {line}: {pres}")
        self.assertNotIn("acc +=", self.row(dom, 7).find("pre")[0].text())
        self.assertEqual(self.row(dom, 9).tag, "div")  # the blank line after dot

    def test_workload_rows(self):
        """@pk.main is coloured over its own lines only: the @pk.function and
        the blank lines after it are not (issue 27); the workunit it runs is."""
        self.assertEqual(self.rc["workload"], 0, self.out["workload"])
        dom = self.page_dom("workload")
        for line in (12, 13, 14):  # decorator, def, body
            self.assertIn("k-main", self.row(dom, line).classes(), f"line {line}")
        for line in (15, 16, 17, 18, 19):  # blank, @pk.function, its def and body, blank
            self.assertEqual(self.row(dom, line).classes(), ["r"], f"line {line}")
        for line in (20, 21, 22):
            self.assertIn("k-for", self.row(dom, line).classes(), f"line {line}")

    def test_escaping(self):
        dom = self.page_dom("kernels")
        for line in (7, 28):  # '<', '&', quotes, <b>, <script> in the source
            code = self.row(dom, line).find("code")[0].text()
            self.assertEqual(code, self.source_line("kernels", line))
        self.assertEqual(dom.find("b"), [])
        self.assertEqual(dom.find("script"), [])

    def test_usage(self):
        for args in (["annotate"], ["annotate", self.src["nstream"], self.src["kernels"], "-o",
                                    os.path.join(self.tmp, "x.html")],
                     ["annotate", os.path.join(self.tmp, "missing.py")]):
            p = subprocess.run([PKC] + args, capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2, f"pkc {' '.join(args)}: {p.stderr}")
        p = subprocess.run([PKC, "help", "annotate"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0)
        self.assertIn("pkc annotate FILE", p.stdout)


if __name__ == "__main__":
    unittest.main()
