# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "SEQPAR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.seqpar_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%seqpar_src_root", config.seqpar_src_root))
python = '"%s"' % sys.executable
config.substitutions.append(
    ("%gen_tp_graph",
     "%s %s/bench/gen_tp_graph.py" % (python, config.seqpar_src_root)))
config.substitutions.append(
    ("%gen_train_graph",
     "%s %s/bench/gen_train_graph.py" % (python, config.seqpar_src_root)))
config.substitutions.append(("%python", python))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [os.path.join(config.seqpar_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["seqpar-opt", "mlir-opt", "seqpar-capi-test", "seqpar-report",
     "seqpar-plan-auto"], tool_dirs)
llvm_config.add_tool_substitutions(["seqpar-run"], tool_dirs)
