// SPDX-License-Identifier: MIT
// PLACEHOLDER so the tree links while the GJK module is written; replaced by the real implementation.
#include "internal.h"

bool kcc_gjk_overlap( const kcc_shape* a, const kcc_shape* b )
{
	(void)a;
	(void)b;
	return false;
}
