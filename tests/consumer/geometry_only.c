// SPDX-License-Identifier: MIT
// A game using kcc2d's intersection core alone (kcc2d::geometry, kcc2d-geometry.pc): cglm only, no Chipmunk.
// A ray hits a box a quarter of its way and a dash capsule overlaps one of two enemies. Exits non-zero when wrong.
#include <kcc/geometry.h>

#include <math.h>
#include <stdio.h>

int main( void )
{
	kcc_shape box = kcc_make_aabb( kcc_v2( 1.0f, -1.0f ), kcc_v2( 2.0f, 1.0f ) );
	kcc_cast_output ray = kcc_ray_cast( &box, kcc_v2( 0.0f, 0.0f ), kcc_v2( 4.0f, 0.0f ) );
	bool ray_ok = ray.hit && fabsf( ray.fraction - 0.25f ) < 1e-6f && fabsf( ray.normal.x + 1.0f ) < 1e-6f &&
				  fabsf( ray.normal.y ) < 1e-6f;
	printf( "geometry consumer: ray hit %d at fraction %g, normal (%g, %g)\n", ray.hit, (double)ray.fraction,
			(double)ray.normal.x, (double)ray.normal.y );

	kcc_shape dash = kcc_make_capsule( kcc_v2( 0.0f, 0.0f ), kcc_v2( 3.0f, 0.0f ), 0.5f );
	kcc_shape near_enemy = kcc_make_circle( kcc_v2( 2.0f, 0.7f ), 0.3f );
	kcc_shape far_enemy = kcc_make_circle( kcc_v2( 5.0f, 0.0f ), 0.3f );
	bool dash_ok = kcc_overlap( &dash, &near_enemy ) && !kcc_overlap( &dash, &far_enemy );
	printf( "geometry consumer: the dash hits the near enemy only: %d\n", dash_ok );
	return ray_ok && dash_ok ? 0 : 1;
}
