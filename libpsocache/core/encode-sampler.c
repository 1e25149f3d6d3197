/* placeholder: being written */
#include "psc-core.h"
