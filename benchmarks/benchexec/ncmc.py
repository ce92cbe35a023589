# This file is part of ncmc: a BenchExec tool-info module.
#
# BenchExec loads tool-info modules from packages: with
# PYTHONPATH=benchmarks/benchexec this module is ncmctool.ncmc (a symlink),
# or copy it to benchexec/tools/ncmc.py (see README.md).

"""BenchExec tool-info module for ncmc, a stateless model checker."""

import re

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

# The answer line `ncmc verify --property FILE.prp` prints last.
_VERDICT = "VERDICT: "

_RESULTS = {
    "TRUE": result.RESULT_TRUE_PROP,
    "FALSE(unreach-call)": result.RESULT_FALSE_REACH,
    "FALSE(no-data-race)": result.RESULT_FALSE_DATARACE,
}

# A diagnostic of bad input: file:line:col: message.
_POSITIONED = re.compile(r"^\S+:\d+:\d+: ")

# Exit codes of ncmc: 0 verified, 1 violation, 2 bad input or usage,
# 3 unknown.
_EXIT_BAD_INPUT = 2

# Seconds of the CPU-time limit left to ncmc to print its answer after its
# own (wall-clock) time limit.
_SLACK = 5


class Tool(benchexec.tools.template.BaseTool2):
    """
    ncmc explores every interleaving of a concurrent C program (SV-COMP
    ConcurrencySafety tasks: pthreads, __VERIFIER_atomic_*, nondeterminism)
    up to loop bounds. It answers TRUE only when every execution was explored
    without hitting a bound, FALSE with a GraphML violation witness
    (witness.graphml in the working directory), and UNKNOWN otherwise.
    Options from the benchmark definition are passed to `ncmc verify`
    (e.g. --unroll 16, --explorer mcr).
    """

    def executable(self, tool_locator):
        return tool_locator.find_executable("ncmc", subdir="bin")

    def name(self):
        return "ncmc"

    def version(self, executable):
        return self._version_from_tool(executable, arg="version")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "verify"] + list(options)
        data_model = get_data_model_from_task(
            task, {ILP32: "--data-model=ILP32", LP64: "--data-model=LP64"}
        )
        if data_model:
            cmd.append(data_model)
        if task.property_file:
            cmd += ["--property", task.property_file]
        if not any(o == "--witness" or o.startswith("--witness=") for o in options):
            cmd += ["--witness", "witness.graphml"]
        if rlimits.cputime and not any(
            o == "--timeout" or o.startswith("--timeout=") for o in options
        ):
            # ncmc's limit is wall-clock time; stop early enough to answer.
            limit = rlimits.cputime - _SLACK if rlimits.cputime > 2 * _SLACK else rlimits.cputime
            cmd.append(f"--timeout={limit}s")
        return cmd + [task.single_input_file]

    def determine_result(self, run):
        for line in reversed(run.output):
            line = line.strip()
            if not line.startswith(_VERDICT):
                continue
            answer = line[len(_VERDICT) :]
            if answer in _RESULTS:
                return _RESULTS[answer]
            if answer.startswith("UNKNOWN"):
                return result.RESULT_UNKNOWN
            return f"{result.RESULT_ERROR} (unexpected answer {answer})"
        if any(line.startswith("panic: ") for line in run.output):
            return f"{result.RESULT_ERROR} (panic)"  # Go also exits with 2
        if run.was_timeout:
            return "TIMEOUT"
        if run.exit_code is not None and run.exit_code.value == _EXIT_BAD_INPUT:
            # A diagnostic file:line:col: message is bad input; "ncmc: ..."
            # is a failure of the checker (e.g. the SMT solver gave up).
            if any(_POSITIONED.match(line) for line in run.output):
                return f"{result.RESULT_ERROR} (bad input)"
            return f"{result.RESULT_ERROR} (checker)"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # identifier "executions": the number of explored executions.
        for line in output:
            if identifier == "executions" and ": " in line and " executions (" in line:
                return line.split(": ", 1)[1].split(" executions", 1)[0]
        return None
