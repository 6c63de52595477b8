#!/usr/bin/env python3
"""tools/check_layers.py: passes on this tree, and on small fixture trees fails
(exit 1, naming file:line) on an include to a layer not drawn below, on a
file in a folder the drawing leaves out and on another folder's namespace
(forward declarations of a layer it sees aside);
a drawing without `sees:` lines is bad input (exit 2)."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "tools" / "check_layers.py"

DRAWING = """# design

## 1. Layers

```
app/             the command
                 sees: platforms sim
platforms/       netlists
                 sees: hw/common sim
hw/common        the vocabulary
                 sees: sim
sim/             time
                 sees: nothing
```

## 2. Next
"""


def run(root=None):
    args = [sys.executable, str(CHECK)] + (["--root", str(root)] if root else [])
    return subprocess.run(args, capture_output=True, text=True)


class CheckLayers(unittest.TestCase):
    def fixture(self, files, drawing=DRAWING):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = pathlib.Path(tmp.name)
        (root / "docs").mkdir()
        (root / "docs" / "design.md").write_text(drawing)
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        return root

    def test_this_tree_passes(self):
        r = run()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_fixture_that_keeps_the_layers_passes(self):
        root = self.fixture({
            "sim/time.h": "#pragma once\nnamespace kairo::sim {}\n",
            "hw/common/packet.h": '#pragma once\n#include "sim/time.h"\n',
            "platforms/net.h": '#pragma once\n#include "hw/common/packet.h"\nnamespace kairo::platforms {}\n',
            "app/main.cpp": '#include "platforms/net.h"\n#include "sim/time.h"\n',
        })
        r = run(root)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_an_include_up_fails_naming_file_and_line(self):
        root = self.fixture({
            "sim/time.h": "#pragma once\n",
            "platforms/net.h": "#pragma once\n",
            "hw/common/packet.h": '#pragma once\n#include "sim/time.h"\n#include "platforms/net.h"\n',
        })
        r = run(root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("hw/common/packet.h:3: hw/common includes platforms/net.h", r.stdout)

    def test_an_include_the_drawing_does_not_list_fails(self):
        # app sees platforms and sim only: hw/common is below it but not drawn as seen
        root = self.fixture({"hw/common/packet.h": "#pragma once\n",
                             "app/main.cpp": '\n#include "hw/common/packet.h"\n'})
        r = run(root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("app/main.cpp:2: app includes hw/common/packet.h", r.stdout)

    def test_a_folder_not_drawn_fails(self):
        root = self.fixture({"gadgets/thing.cpp": "int x;\n"})
        r = run(root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("gadgets/thing.cpp:1: in no layer", r.stdout)

    def test_another_folders_namespace_fails(self):
        root = self.fixture({"platforms/net.h": "#pragma once\n\nnamespace kairo::ocs {\nclass Fabric;\n}\n"})
        r = run(root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("platforms/net.h:3: platforms opens namespace kairo::ocs", r.stdout)

    def test_a_forward_declaration_of_a_seen_layer_passes_but_code_there_fails(self):
        declares = "#pragma once\n\nnamespace kairo::sim {\nclass Trace;\n}  // namespace kairo::sim\n"
        r = run(self.fixture({"platforms/net.h": declares}))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        defines = "#pragma once\n\nnamespace kairo::sim {\nclass Trace;\ninline int f() { return 1; }\n}\n"
        r = run(self.fixture({"platforms/net.h": defines}))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("platforms/net.h:3: platforms opens namespace kairo::sim", r.stdout)

    def test_a_drawing_without_sees_lines_is_bad_input(self):
        root = self.fixture({"sim/time.h": "\n"}, DRAWING.replace("                 sees: nothing\n", ""))
        r = run(root)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("no `sees:` line for sim", r.stderr)


if __name__ == "__main__":
    unittest.main()
