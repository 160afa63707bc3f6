//===- ToolOptions.cpp - a tool's --help shows its own options ------------===//

#include "seqpar/Support/ToolOptions.h"

#include "llvm/ADT/STLExtras.h"

namespace cl = llvm::cl;

void mlir::seqpar::hideUnrelatedOptions(cl::OptionCategory &category) {
  for (auto &[name, option] : cl::getRegisteredOptions()) {
    if (name == "help" || name == "version" ||
        llvm::is_contained(option->Categories, &category))
      continue;
    if (option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}
