// SPDX-License-Identifier: MIT
// Quality property 7 (DESIGN.md section 5): the ground state is exact. A fall reports KCC_ON_FLOOR on exactly the
// step of contact; a jump is never snapped back; snapping keeps contact walking down steps smaller than
// snap_distance (and only those); for all three characters.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define DEG ( SCENE_PI / 180.0f )

// Steps whose predicted outcome is this close to the skin threshold are not judged (floor detection may use a
// tolerance this small); every other step must report exactly.
#define AMBIGUITY 1e-3f

// Falls from height above a floor with normal floor_normal (tiled flat floor, or a 30 degree slope). The step of
// contact is predicted from the gap before the move: a flat face's distance changes by dot(delta, normal).
// Returns true when the landing step itself was judged (not ambiguous).
static bool fall_and_land( int kind, bool slope, float height, vec2s* landing_position )
{
	scene* s = scene_create( 1.0f );
	vec2s normal;
	if ( slope )
	{
		float angle = 30.0f * DEG;
		scene_add_slope( s, kcc_v2( -20.0f, -20.0f * tanf( angle ) ), angle, 40.0f, 3.0f );
		normal = kcc_v2( -sinf( angle ), cosf( angle ) );
	}
	else
	{
		scene_add_tile_row( s, -20, -1, 40 );
		normal = kcc_v2( 0.0f, 1.0f );
	}
	float half_height = test_character_half_height( kind );
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.37f, half_height + height ) );
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	const char* name = test_character_name( kind );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	bool landed = false;
	bool judged_landing = false;
	for ( int step = 0; step < 300; ++step )
	{
		vec2s p = kcc_controller_get_position( c );
		float gap_before = scene_gap( s, &def.shape, p, 50.0f );
		vec2s v = kcc_v2( 0.0f, velocity.y - GRAVITY * DT );
		vec2s delta = kcc_v2( v.x * DT, v.y * DT );
		float approach = -( delta.x * normal.x + delta.y * normal.y ); // how much closer the move would bring it
		float margin = ( gap_before - def.skin ) - approach;         // < 0: the move reaches the skin
		kcc_move_result result;
		assert_int_equal( kcc_controller_move_and_slide( c, v, DT, &velocity, &result ), KCC_OK );
		bool on_floor = ( result.flags & KCC_ON_FLOOR ) != 0;
		if ( landed == false )
		{
			if ( fabsf( margin ) >= AMBIGUITY )
			{
				bool expected = margin < 0.0f;
				SCENE_CHECK( on_floor == expected,
							 "%s %s from %g, step %d: ON_FLOOR %d, expected %d (gap before %g, move %g, skin %g)", name,
							 slope ? "slope" : "floor", (double)height, step, (int)on_floor, (int)expected,
							 (double)gap_before, (double)approach, (double)def.skin );
				judged_landing = judged_landing || expected;
			}
			if ( on_floor )
			{
				landed = true;
				*landing_position = result.position;
				float gap = scene_gap( s, &def.shape, result.position, 1.0f );
				SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s: landed with gap %g", name, (double)gap );
				SCENE_CHECK( result.floor_normal.x * normal.x + result.floor_normal.y * normal.y >= 1.0f - 1e-5f,
							 "%s: floor normal (%g, %g)", name, (double)result.floor_normal.x,
							 (double)result.floor_normal.y );
				SCENE_CHECK( velocity.x * normal.x + velocity.y * normal.y >= -1e-5f,
							 "%s: velocity into the floor kept after landing (%g, %g)", name, (double)velocity.x,
							 (double)velocity.y );
			}
		}
		else
		{
			SCENE_CHECK( on_floor, "%s %s from %g: lost the floor at step %d after landing", name,
						 slope ? "slope" : "floor", (double)height, step );
		}
		float depth = scene_overlap( s, &def.shape, result.position );
		SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
	}
	SCENE_CHECK( landed, "%s from %g: never landed", name, (double)height );
	kcc_controller_destroy( c );
	scene_destroy( s );
	return judged_landing;
}

static void test_fall_reports_floor_on_the_step_of_contact( void** state )
{
	(void)state;
	static const float heights[] = { 0.6f, 1.0f, 2.13f, 3.37f, 5.11f, 7.9f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int slope = 0; slope < 2; ++slope )
		{
			int judged = 0;
			for ( int hi = 0; hi < 6; ++hi )
			{
				vec2s landing;
				judged += fall_and_land( kind, slope != 0, heights[hi], &landing ) ? 1 : 0;
			}
			// Never vacuous: most landings fall clear of the ambiguity band.
			SCENE_CHECK( judged >= 4, "%s: only %d of 6 landings could be judged", test_character_name( kind ), judged );
		}
	}
}

// Standing on a floor (flat or a 30 degree slope, walking or not), a jump's first step gains height and is not
// on the floor; the character keeps rising until the apex.
static void test_jump_is_not_snapped_back( void** state )
{
	(void)state;
	static const float jumps[] = { 10.0f, 3.0f, 1.0f };
	static const float walks[] = { 0.0f, 6.0f, -6.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int slope = 0; slope < 2; ++slope )
		{
			for ( int ji = 0; ji < 3; ++ji )
			{
				for ( int wi = 0; wi < 3; ++wi )
				{
					float rising = jumps[ji] - GRAVITY * DT;
					if ( slope && walks[wi] > 0.0f && rising <= walks[wi] * tanf( 30.0f * DEG ) )
					{
						continue; // walking uphill faster than the jump rises: still on the slope, rightly
					}
					scene* s = scene_create( 1.0f );
					if ( slope )
					{
						float angle = 30.0f * DEG;
						scene_add_slope( s, kcc_v2( -20.0f, -20.0f * tanf( angle ) ), angle, 40.0f, 3.0f );
					}
					else
					{
						scene_add_tile_row( s, -20, -1, 40 );
					}
					kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 1.5f ) );
					kcc_controller* c = scene_create_controller( s, &def );
					assert_non_null( c );
					vec2s velocity = kcc_v2( 0.0f, 0.0f );
					for ( int i = 0; i < 90; ++i )
					{
						assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, NULL ), KCC_OK );
					}
					SCENE_CHECK( kcc_controller_is_on_floor( c ), "%s: not standing before the jump",
								 test_character_name( kind ) );
					// Walk one step first so that snapping is armed.
					assert_int_equal( test_gravity_step( c, &velocity, walks[wi], GRAVITY, DT, NULL ), KCC_OK );
					SCENE_CHECK( kcc_controller_is_on_floor( c ), "%s: not standing after a walking step",
								 test_character_name( kind ) );
					velocity.y = jumps[ji];
					vec2s before = kcc_controller_get_position( c );
					kcc_move_result result;
					assert_int_equal( test_gravity_step( c, &velocity, walks[wi], GRAVITY, DT, &result ), KCC_OK );
					float gained = result.position.y - before.y;
					// Going up a slope the floor may still clip the first step; never down to the floor, though.
					SCENE_CHECK( gained > 0.5f * rising * DT, "%s %s jump %g walk %g: first step gained %g of %g",
								 test_character_name( kind ), slope ? "slope" : "floor", (double)jumps[ji],
								 (double)walks[wi], (double)gained, (double)( rising * DT ) );
					if ( slope == 0 || walks[wi] <= 0.0f )
					{
						SCENE_CHECK( fabsf( gained - rising * DT ) <= 1e-5f, "%s jump %g: gained %g, expected %g",
									 test_character_name( kind ), (double)jumps[ji], (double)gained,
									 (double)( rising * DT ) );
					}
					SCENE_CHECK( ( result.flags & ( KCC_ON_FLOOR | KCC_SNAPPED ) ) == 0,
								 "%s %s jump %g walk %g: flags 0x%x on the first jump step", test_character_name( kind ),
								 slope ? "slope" : "floor", (double)jumps[ji], (double)walks[wi],
								 (unsigned)result.flags );
					// Keeps rising while the velocity points up.
					while ( velocity.y - GRAVITY * DT > 0.0f )
					{
						vec2s p = kcc_controller_get_position( c );
						assert_int_equal( test_gravity_step( c, &velocity, walks[wi], GRAVITY, DT, &result ), KCC_OK );
						SCENE_CHECK( result.position.y > p.y, "%s jump %g: stopped rising at y %g",
									 test_character_name( kind ), (double)jumps[ji], (double)p.y );
						SCENE_CHECK( ( result.flags & KCC_ON_FLOOR ) == 0, "%s jump %g: on the floor while rising",
									 test_character_name( kind ), (double)jumps[ji] );
					}
					kcc_controller_destroy( c );
					scene_destroy( s );
				}
			}
		}
	}
}

// Walking off a ledge down onto a lower tiled floor: steps smaller than snap_distance keep ON_FLOOR on every step
// (snapped); a step larger than snap_distance is a fall (at least one step in the air).
static void test_snap_down_steps( void** state )
{
	(void)state;
	static const float drops[] = { 0.02f, 0.05f, 0.08f, 0.5f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int di = 0; di < 4; ++di )
		{
			for ( int dir = -1; dir <= 1; dir += 2 )
			{
				float drop = drops[di];
				scene* s = scene_create( (float)dir );
				scene_add_tile_row( s, -10, -1, 15 ); // top at 0 for x in [-10, 5]
				for ( int x = 5; x < 25; ++x )
				{
					scene_add_box( s, (float)x, -1.0f - drop, (float)x + 1.0f, -drop ); // lower tiles
				}
				float half_height = test_character_half_height( kind );
				kcc_controller_def def = test_character_def( kind, kcc_v2( (float)dir * 2.0f, half_height + 0.01f ) );
				kcc_controller* c = scene_create_controller( s, &def );
				assert_non_null( c );
				vec2s velocity = kcc_v2( 0.0f, 0.0f );
				int air_steps = 0;
				int snapped = 0;
				for ( int step = 0; step < 120; ++step )
				{
					kcc_move_result result;
					assert_int_equal( test_gravity_step( c, &velocity, (float)dir * 6.0f, GRAVITY, DT, &result ),
									  KCC_OK );
					bool on_floor = ( result.flags & KCC_ON_FLOOR ) != 0;
					air_steps += on_floor ? 0 : 1;
					snapped += ( result.flags & KCC_SNAPPED ) ? 1 : 0;
					if ( drop < def.snap_distance && step > 0 )
					{
						SCENE_CHECK( on_floor, "%s drop %g dir %d step %d at x %.4f: left the floor",
									 test_character_name( kind ), (double)drop, dir, step,
									 (double)result.position.x );
						// The skin is kept along the contact normal at the time of impact (DESIGN.md, the move):
						// exactly skin from the flat lower floor; from the ledge's corner, which the character rounds,
						// a little more, at most skin / (normal . up).
						kcc_distance_output nearest = scene_nearest( s, &def.shape, result.position, 1.0f );
						float gap = nearest.distance;
						float facing = fmaxf( -nearest.normal.y, 0.1f );
						SCENE_CHECK( gap >= 0.0f && gap <= def.skin / facing + 1e-4f,
									 "%s drop %g dir %d step %d: gap %.7g at (%.7g, %.7g), flags 0x%x",
									 test_character_name( kind ), (double)drop, dir, step, (double)gap,
									 (double)result.position.x, (double)result.position.y, (unsigned)result.flags );
					}
					float depth = scene_overlap( s, &def.shape, result.position );
					SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g",
								 test_character_name( kind ), (double)depth );
				}
				vec2s p = kcc_controller_get_position( c );
				SCENE_CHECK( (float)dir * p.x > 10.0f, "%s: did not reach the lower floor", test_character_name( kind ) );
				SCENE_CHECK( fabsf( p.y - ( half_height - drop ) ) <= def.skin + 1e-4f,
							 "%s drop %g: ended at y %g, floor at %g", test_character_name( kind ), (double)drop,
							 (double)p.y, (double)-drop );
				if ( drop < def.snap_distance )
				{
					// A flat bottom leaving the ledge must drop the whole step at once (gravity gives 0.008 per step
					// here): only a snap keeps it on the floor. Round bottoms may roll down the corner instead.
					SCENE_CHECK( kind != TEST_BOX || snapped > 0, "%s drop %g: never reported KCC_SNAPPED",
								 test_character_name( kind ), (double)drop );
				}
				else
				{
					SCENE_CHECK( air_steps > 0, "%s drop %g: snapped down a step larger than snap_distance",
								 test_character_name( kind ), (double)drop );
				}
				kcc_controller_destroy( c );
				scene_destroy( s );
			}
		}
	}
}

// A round bottom resting over a tile's corner, a little beyond the skin (within the resting tolerance): the probe
// finds the corner's disc without converting the tile (a box tile is cast as a box), then settles one Newton step
// against the tile itself, which it converts then. The character ends a skin from the corner, and where it ends does
// not depend on what other characters' moves left in the candidate buffer the single calls share: here another tile,
// converted where it lies a little above this one in the frame of the move that converted it.
static vec2s settle_on_corner( int kind, float gap, float dx, bool others )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile( s, -30, -1 ); // [-30, -29] x [-1, 0]
	scene_add_tile( s, 0, -1 );   // [0, 1] x [-1, 0]
	scene_commit( s, 0 );
	// The round bottom's centre dx past the corner (1, 0), the gap to it a little over the skin: its box clear of the
	// tile's (no depenetration test converts the tile).
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 0.0f ) );
	float radius = kind == TEST_CIRCLE ? 0.4f : 0.3f, below = kind == TEST_CIRCLE ? 0.0f : 0.3f;
	float reach = radius + gap;
	def.position = kcc_v2( 1.0f + dx, sqrtf( reach * reach - dx * dx ) + below );
	// A box character by the far tile, its only candidate, placed as this one is by its tile but 0.005 lower: its move
	// converts that tile (a polygon's sweeps and depenetration do).
	kcc_controller_def other_def = test_character_def( TEST_BOX, glms_vec2_sub( def.position, kcc_v2( 30.0f, 0.005f ) ) );
	kcc_move_result result;
	kcc_controller* first = others ? kcc_controller_create( s->space, &other_def ) : NULL;
	if ( others )
	{
		assert_int_equal( kcc_controller_move( first, kcc_v2( 0.0f, 0.0f ), &result ), KCC_OK );
	}
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	kcc_controller* second = others ? kcc_controller_create( s->space, &other_def ) : NULL;
	if ( others )
	{
		kcc_controller_destroy( first );
		assert_int_equal( kcc_controller_move( second, kcc_v2( 0.0f, 0.0f ), &result ), KCC_OK );
	}
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &result ), KCC_OK );
	kcc_distance_output nearest = scene_nearest( s, &def.shape, result.position, 1.0f );
	SCENE_CHECK( ( result.flags & KCC_ON_FLOOR ) != 0, "%s gap %g: not on the corner", test_character_name( kind ),
				 (double)gap );
	SCENE_CHECK( fabsf( nearest.distance - def.skin ) <= 1e-4f, "%s gap %g: %.7g from the corner, skin %g",
				 test_character_name( kind ), (double)gap, (double)nearest.distance, (double)def.skin );
	kcc_controller_destroy( c );
	if ( second != NULL )
	{
		kcc_controller_destroy( second );
	}
	scene_destroy( s );
	return result.position;
}

static void test_a_round_bottom_settles_on_a_tile_corner( void** state )
{
	(void)state;
	const float gaps[3] = { 0.012f, 0.0135f, 0.011f };
	for ( int kind = TEST_CIRCLE; kind <= TEST_CAPSULE; ++kind )
	{
		for ( int g = 0; g < 3; ++g )
		{
			float dx = 0.03f + 0.02f * (float)g;
			vec2s alone = settle_on_corner( kind, gaps[g], dx, false );
			vec2s among_others = settle_on_corner( kind, gaps[g], dx, true );
			SCENE_CHECK( memcmp( &alone, &among_others, sizeof( vec2s ) ) == 0,
						 "%s gap %g: ends at (%.9g, %.9g) alone, (%.9g, %.9g) after other characters' moves",
						 test_character_name( kind ), (double)gaps[g], (double)alone.x, (double)alone.y,
						 (double)among_others.x, (double)among_others.y );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_fall_reports_floor_on_the_step_of_contact ),
		cmocka_unit_test( test_jump_is_not_snapped_back ),
		cmocka_unit_test( test_snap_down_steps ),
		cmocka_unit_test( test_a_round_bottom_settles_on_a_tile_corner ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_ground", tests, NULL, NULL );
}
