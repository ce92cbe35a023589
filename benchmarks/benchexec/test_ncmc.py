"""Tests of the BenchExec tool-info module ncmc.py without a BenchExec
installation: the few BenchExec names the module uses are stubbed here.

    python3 -m unittest discover -s benchmarks/benchexec -p 'test_*.py'

With NCMC=path/to/ncmc (e.g. bin/ncmc) the tests also run ncmc on SV-COMP
tasks with the command line the module builds and map its real output.
"""

import os
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path


def _stub_benchexec():
    """Install minimal stand-ins for benchexec.result, .tools.template and
    .tools.sv_benchmarks_util (the values are BenchExec's)."""
    if "benchexec" in sys.modules and not getattr(sys.modules["benchexec"], "_ncmc_stub", False):
        return  # the real BenchExec is installed
    bx = types.ModuleType("benchexec")
    bx._ncmc_stub = True
    res = types.ModuleType("benchexec.result")
    res.RESULT_TRUE_PROP = "true"
    res.RESULT_FALSE_REACH = "false(unreach-call)"
    res.RESULT_FALSE_DATARACE = "false(no-data-race)"
    res.RESULT_UNKNOWN = "unknown"
    res.RESULT_ERROR = "ERROR"
    tools = types.ModuleType("benchexec.tools")
    template = types.ModuleType("benchexec.tools.template")

    class BaseTool2:
        def _version_from_tool(self, executable, arg="--version"):
            out = subprocess.run([executable, arg], capture_output=True, text=True, check=False)
            return out.stdout.strip()

    template.BaseTool2 = BaseTool2
    util = types.ModuleType("benchexec.tools.sv_benchmarks_util")
    util.ILP32, util.LP64 = "ILP32", "LP64"

    def get_data_model_from_task(task, param_dict):
        opts = task.options if isinstance(task.options, dict) else {}
        if opts.get("language") == "C" and opts.get("data_model"):
            return param_dict[opts["data_model"]]
        return None

    util.get_data_model_from_task = get_data_model_from_task
    bx.result, bx.tools = res, tools
    tools.template, tools.sv_benchmarks_util = template, util
    sys.modules.update(
        {
            "benchexec": bx,
            "benchexec.result": res,
            "benchexec.tools": tools,
            "benchexec.tools.template": template,
            "benchexec.tools.sv_benchmarks_util": util,
        }
    )


_stub_benchexec()
sys.path.insert(0, str(Path(__file__).resolve().parent))
import ncmc  # noqa: E402


class ExitCode:
    def __init__(self, value):
        self.value = value


class Run:
    def __init__(self, output, code=0, timeout=False):
        self.output = output.splitlines()
        self.exit_code = ExitCode(code)
        self.was_timeout = timeout


class Task:
    def __init__(self, file, prp, options=None):
        self.single_input_file = file
        self.property_file = prp
        self.options = options


class Limits:
    def __init__(self, cputime=None):
        self.cputime = cputime


class DetermineResult(unittest.TestCase):
    def test_answers(self):
        tool = ncmc.Tool()
        cases = [
            ("p.c: VERIFIED (all executions explored)\nmodel sc\nVERDICT: TRUE\n", 0, False, "true"),
            ("p.c: VIOLATION (reach_error() called)\ncounterexample:\n  t0 l.3 VERDICT: TRUE\nVERDICT: FALSE(unreach-call)\n", 1, False, "false(unreach-call)"),
            ("VERDICT: FALSE(no-data-race)\n", 1, False, "false(no-data-race)"),
            ("p.c: UNKNOWN (unroll bound 8 hit)\nVERDICT: UNKNOWN (unroll bound 8 hit at p.c:4)\n", 3, False, "unknown"),
            ("p.c: UNKNOWN (time bound)\nVERDICT: UNKNOWN (time bound 10s hit)\n", 3, True, "unknown"),
            ("VERDICT: MAYBE\n", 0, False, "ERROR (unexpected answer MAYBE)"),
            ("p.c:3:4: expected ';'\n", 2, False, "ERROR (bad input)"),
            ("p.c: 1000 executions so far\n", None, True, "TIMEOUT"),
            ("panic: boom\n\ngoroutine 1 [running]:\n", 2, False, "ERROR (panic)"),
            ("ncmc: mcr: solver gave up: context deadline exceeded\n", 2, False, "ERROR (checker)"),
            ("", 139, False, "ERROR"),
        ]
        for output, code, timeout, want in cases:
            with self.subTest(output=output):
                self.assertEqual(tool.determine_result(Run(output, code, timeout)), want)

    def test_cmdline(self):
        tool = ncmc.Tool()
        task = Task("t.c", "unreach-call.prp", {"language": "C", "data_model": "LP64"})
        cmd = tool.cmdline("ncmc", ["--unroll", "16"], task, Limits(900))
        self.assertEqual(
            cmd,
            ["ncmc", "verify", "--unroll", "16", "--data-model=LP64", "--property", "unreach-call.prp",
             "--witness", "witness.graphml", "--timeout=895s", "t.c"],
        )
        cmd = tool.cmdline("ncmc", ["--timeout=3s", "--witness=w.graphml"], Task("t.c", None), Limits(900))
        self.assertEqual(cmd, ["ncmc", "verify", "--timeout=3s", "--witness=w.graphml", "t.c"])


SVCOMP = Path(__file__).resolve().parents[3] / "shared" / "bench" / "svcomp"


@unittest.skipUnless(os.environ.get("NCMC"), "set NCMC to an ncmc binary to run it on tasks")
class RealRuns(unittest.TestCase):
    def run_task(self, file, options, cwd, prp="unreach-call.prp"):
        tool = ncmc.Tool()
        exe = os.path.abspath(os.environ["NCMC"])
        task = Task(str(file), str(SVCOMP / "properties" / prp), {"language": "C", "data_model": "ILP32"})
        cmd = tool.cmdline(exe, options, task, Limits(60))
        # BenchExec writes stdout and stderr of a run to one output file.
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd, check=False)
        p.stderr = ""
        return tool.determine_result(Run(p.stdout, p.returncode)), p

    def test_tasks(self):
        cases = [
            ("thesis/sigma.c", ["--unroll", "16"], "false(unreach-call)", True),
            ("thesis/pthread-demo-datarace-1.c", ["--unroll", "20", "--explorer", "reference", "--state-cache"], "true", False),
            ("thesis/fkp2013-1.c", ["--max-executions", "10", "--explorer", "reference"], "unknown", False),
        ]
        for file, options, want, witness in cases:
            with self.subTest(file=file), tempfile.TemporaryDirectory() as cwd:
                got, p = self.run_task(SVCOMP / file, options, cwd)
                self.assertEqual(got, want, p.stdout + p.stderr)
                self.assertEqual(os.path.exists(os.path.join(cwd, "witness.graphml")), witness)

    def test_data_race(self):
        racy = "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\nint main(void) {\n  pthread_t p;\n  pthread_create(&p, 0, t, 0);\n  x = 2;\n  pthread_join(p, 0);\n  return 0;\n}\n"
        with tempfile.TemporaryDirectory() as cwd:
            f = Path(cwd) / "racy.c"
            f.write_text(racy)
            got, p = self.run_task(f, [], cwd, "no-data-race.prp")
            self.assertEqual(got, "false(no-data-race)", p.stdout + p.stderr)
            safe = Path(cwd) / "safe.c"
            safe.write_text(racy.replace("  x = 2;\n", ""))
            got, p = self.run_task(safe, [], cwd, "no-data-race.prp")
            self.assertEqual(got, "true", p.stdout + p.stderr)

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as cwd:
            bad = Path(cwd) / "bad.c"
            bad.write_text("int main(void) { return 0 }\n")
            got, p = self.run_task(bad, [], cwd)
            self.assertEqual(got, "ERROR (bad input)", p.stdout + p.stderr)

    def test_version(self):
        v = ncmc.Tool().version(os.path.abspath(os.environ["NCMC"]))
        self.assertRegex(v, r"^\d+\.\d+")


if __name__ == "__main__":
    unittest.main()
