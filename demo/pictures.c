// SPDX-License-Identifier: MIT
#include "pictures.h"

#include <stdio.h>

int demo_render_pictures( const char* map, const char* folder )
{
	(void)map;
	(void)folder;
	fprintf( stderr, "demo: pictures not done yet\n" );
	return 1;
}
