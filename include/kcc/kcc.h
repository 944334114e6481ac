// SPDX-License-Identifier: MIT
// kcc2d umbrella header.
#pragma once

#include "kcc/geometry.h"
#include "kcc/controller.h"
#include "kcc/debug_draw.h"
