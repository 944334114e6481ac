// SPDX-License-Identifier: MIT
// The world query counter (query_count.h).
#include "query_count.h"

#include <chipmunk/chipmunk.h>

void __real_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data );
void __wrap_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data );

static long s_count = 0;
static long s_budget = -1;

void query_count_reset( long budget )
{
	s_count = 0;
	s_budget = budget;
}

long query_count( void )
{
	return s_count;
}

void __wrap_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data )
{
	s_count += 1;
	if ( s_budget < 0 || s_count <= s_budget )
	{
		__real_cpSpaceBBQuery( space, bb, filter, func, data );
	}
}
