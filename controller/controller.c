// SPDX-License-Identifier: MIT
// PLACEHOLDER: being written.
#include "kcc/controller.h"
