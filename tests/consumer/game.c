// SPDX-License-Identifier: MIT
// The smallest game using kcc2d, built by CI the three ways a game adopts it (find_package, pkg-config,
// add_subdirectory): a character falls one step onto a floor of a cpSpace, then a sword arc hits one of two
// enemies. Exits non-zero when either answer is wrong.
#include <kcc/kcc.h>

#include <math.h>
#include <stdio.h>

int main( void )
{
	cpSpace* space = cpSpaceNew();
	cpShape* floor = cpSegmentShapeNew( cpSpaceGetStaticBody( space ), cpv( -10.0, 0.0 ), cpv( 10.0, 0.0 ), 0.0 );
	cpSpaceAddShape( space, floor );

	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 0.0f, 2.0f );
	kcc_controller* player = kcc_controller_create( space, &def );
	if ( player == NULL )
	{
		printf( "consumer: kcc_controller_create failed: %s\n", kcc_controller_def_problem( &def ) );
		return 1;
	}

	kcc_move_result result;
	kcc_status status = kcc_controller_move( player, kcc_v2( 0.5f, -5.0f ), &result );
	vec2s position = kcc_controller_get_position( player );
	bool landed = status == KCC_OK && ( result.flags & KCC_ON_FLOOR ) != 0 && fabsf( position.x - 0.5f ) < 1e-4f &&
				  position.y > 0.0f && position.y < 2.0f;
	printf( "consumer: move %s, position (%g, %g), on floor %d\n", kcc_status_string( status ), (double)position.x,
			(double)position.y, ( result.flags & KCC_ON_FLOOR ) != 0 );

	// A 100 degree arc of radius 2.5 facing +x: the enemy ahead is inside it, the one behind is not.
	kcc_shape arc = kcc_make_sector( position, kcc_v2( 1.0f, 0.0f ), 2.5f, 1.745f );
	kcc_shape ahead = kcc_make_circle( kcc_v2( position.x + 2.0f, position.y ), 0.3f );
	kcc_shape behind = kcc_make_circle( kcc_v2( position.x - 2.0f, position.y ), 0.3f );
	bool hits = kcc_overlap( &arc, &ahead ) && !kcc_overlap( &arc, &behind );
	printf( "consumer: the arc hits the enemy ahead only: %d\n", hits );

	kcc_controller_destroy( player );
	cpShapeFree( floor );
	cpSpaceFree( space );
	return landed && hits ? 0 : 1;
}
