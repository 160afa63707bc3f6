//===- SymbolUses.cpp - whether a function is referenced ------------------===//

#include "seqpar/Analysis/SymbolUses.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

/// Whether `attr` holds a symbol reference rooted at `name`.
static bool refersTo(Attribute attr, StringAttr name) {
  return attr
      .walk([&](SymbolRefAttr ref) {
        return ref.getRootReference() == name ? WalkResult::interrupt()
                                              : WalkResult::advance();
      })
      .wasInterrupted();
}

bool seqpar::isSymbolReferenced(SymbolOpInterface symbol, Operation *within) {
  StringAttr name = symbol.getNameAttr();
  return within
      ->walk([&](Operation *op) {
        // The inherent attributes of an op with properties are read only
        // where they may name a symbol: building them as a dictionary is
        // what makes the upstream query slow. A function's argument and
        // result attributes are any attributes.
        bool mayName =
            !op->isRegistered() ||
            isa<SymbolUserOpInterface, CallOpInterface, FunctionOpInterface>(
                op);
        DictionaryAttr attrs = mayName ? op->getAttrDictionary()
                                       : op->getDiscardableAttrDictionary();
        // Most ops have no attribute outside their properties: no walk.
        return !attrs.empty() && refersTo(attrs, name) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
      })
      .wasInterrupted();
}
