// SPDX-License-Identifier: MIT
// PLACEHOLDER: being written.
#include "internal.h"
