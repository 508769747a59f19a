#!/usr/bin/env python3
"""bench/research/py_preimport.py: runs a script after importing some stdlib modules
first, a null perturbation of the Python process's heap before its baseline (#19, README 9).

    python3 bench/research/py_preimport.py MOD[,MOD...] SCRIPT ARGS...

Imports each MOD, then runs SCRIPT as __main__ with sys.argv = [SCRIPT, ARGS...]
(runpy.run_path), so the script sees the same arguments as when started itself."""
import importlib
import runpy
import sys

for name in sys.argv[1].split(","):
    importlib.import_module(name)
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
