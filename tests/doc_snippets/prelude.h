// SPDX-License-Identifier: MIT
// What every doc block that is not a program is compiled after (see CMakeLists.txt here): the headers the pages
// assume. A block may #include them again: each is read once.
#pragma once

#include <kcc/kcc.h>
#include <kcc/level.h>
#include <kcc/testkit.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
