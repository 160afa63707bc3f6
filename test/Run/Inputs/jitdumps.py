"""Counts the jitdump files (jit-<pid>.dump, LLVM's perf listener) under a
directory, hidden ones included, and says whether each names the program's
outlined loop nests. Usage: jitdumps.py DIR"""
import os
import sys

dumps = [os.path.join(root, name)
         for root, _, names in os.walk(sys.argv[1])
         for name in names if name.startswith("jit-") and name.endswith(".dump")]
named = all(b"forward__nest" in open(path, "rb").read() for path in dumps)
print(f"{len(dumps)} jitdump file(s)" +
      (f", every one names forward__nest: {named}" if dumps else ""))
