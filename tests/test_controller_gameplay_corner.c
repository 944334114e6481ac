// SPDX-License-Identifier: MIT
// Corner correction (def.corner_correction, Celeste's ledge nudge), for the circle, the capsule and the rounded box
// (60 Hz, gravity 30, jump 13):
// - a jump whose edge clips a ceiling's corner by 0.05 is nudged around it with corner_correction 0.1 and reaches
//   the height of a free jump (the issue saw a capsule lose 0.65 of it), moving sideways by no more than the clip
//   plus the skin; with corner_correction 0 the same jump is cut short and nothing is ever flagged;
// - a corner clipped by more than corner_correction is left alone (the same trajectory as with it off);
// - a jump sideways whose bottom clips a ledge's corner by 0.05 is nudged up onto the ledge;
// - corner_correction out of range is refused by the def check.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "assert_recorder.h"
#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define JUMP 13.0f

typedef struct jump_figures
{
	float apex;      // highest y reached above the start
	float drift;     // largest |x| change from the start
	int corrected;   // frames with KCC_CORNER_CORRECTED
	int first_ceiling; // the first frame that met the ceiling (-1: none)
	float widest_nudge; // largest sideways motion of a corrected frame
	float deepest;   // largest overlap with the level
	vec2s path[60];  // positions, frame by frame
} jump_figures;

// The character stands at x = 0 on a floor (top at 0). ceiling: a block whose bottom is 1 above the character's
// head and whose right edge overlaps the character's left side by clip (no block when clip < 0). The jump goes
// straight up with no input for 60 frames.
static jump_figures jump_under_corner( int kind, float clip, float correction )
{
	jump_figures f;
	memset( &f, 0, sizeof( f ) );
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -10, -1, 20 );
	float hw = test_character_half_width( kind );
	float height = test_character_height( kind );
	if ( clip >= 0.0f )
	{
		scene_add_box( s, -5.0f, height + 1.0f, -hw + clip, height + 3.0f );
	}
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 0.5f * height + 0.01f ) );
	def.corner_correction = correction;
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	vec2s start = kcc_controller_get_position( c );
	vec2s velocity = kcc_v2( 0.0f, JUMP + GRAVITY * DT );
	f.apex = -FLT_MAX;
	f.first_ceiling = -1;
	for ( int i = 0; i < 60; ++i )
	{
		kcc_move_result r;
		assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
		if ( f.first_ceiling < 0 && ( r.flags & KCC_ON_CEILING ) )
		{
			f.first_ceiling = i;
		}
		if ( r.flags & KCC_CORNER_CORRECTED )
		{
			f.widest_nudge = fmaxf( f.widest_nudge, fabsf( r.displacement.x ) );
		}
		f.path[i] = r.position;
		f.apex = fmaxf( f.apex, r.position.y - start.y );
		f.drift = fmaxf( f.drift, fabsf( r.position.x - start.x ) );
		f.corrected += ( r.flags & KCC_CORNER_CORRECTED ) ? 1 : 0;
		f.deepest = fmaxf( f.deepest, scene_overlap( s, &def.shape, r.position ) );
	}
	kcc_controller_destroy( c );
	scene_destroy( s );
	return f;
}

static void test_a_jump_clipping_a_ceiling_corner_is_nudged_around_it( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		jump_figures free_jump = jump_under_corner( kind, -1.0f, 0.0f );
		jump_figures off = jump_under_corner( kind, 0.05f, 0.0f );
		jump_figures on = jump_under_corner( kind, 0.05f, 0.1f );
		print_message( "%-11s free jump %.4f; clipping a corner by 0.05: %.4f without correction (%.0f%% lost), %.4f "
					   "with 0.1 (drift %.4f, %d frames corrected)\n", name, (double)free_jump.apex, (double)off.apex,
					   100.0 * (double)( 1.0f - off.apex / free_jump.apex ), (double)on.apex, (double)on.drift,
					   on.corrected );
		SCENE_CHECK( off.corrected == 0, "%s: corrected %d times with corner_correction 0", name, off.corrected );
		SCENE_CHECK( off.apex < free_jump.apex - 0.1f, "%s: the corner did not cut the jump (%g of %g)", name,
					 (double)off.apex, (double)free_jump.apex );
		SCENE_CHECK( on.corrected >= 1, "%s: never corrected", name );
		SCENE_CHECK( fabsf( on.apex - free_jump.apex ) <= 1e-3f, "%s: corrected jump reached %.5f, a free one %.5f", name,
					 (double)on.apex, (double)free_jump.apex );
		SCENE_CHECK( on.drift <= 0.05f + 0.01f + 1e-4f, "%s: nudged %.5f sideways for a clip of 0.05", name,
					 (double)on.drift );
		SCENE_CHECK( on.deepest <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)on.deepest );
	}
}

// A corner clipped by 0.15 with a correction of 0.1: the jump meets the ceiling exactly as with no correction, not
// nudged there. A flat top (the box) stays on that path; a round top slides along the corner, and once that has
// brought the clip within 0.1 it may be nudged, never by more than 0.1 and the skin.
static void test_a_corner_beyond_the_correction_is_left_alone( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		jump_figures off = jump_under_corner( kind, 0.15f, 0.0f );
		jump_figures on = jump_under_corner( kind, 0.15f, 0.1f );
		print_message( "%-11s corner clipped by 0.15, correction 0.1: met the ceiling at frame %d, %d frames corrected, "
					   "widest nudge %.4f\n", name, off.first_ceiling, on.corrected, (double)on.widest_nudge );
		SCENE_CHECK( off.first_ceiling >= 0, "%s: never met the ceiling", name );
		int same = kind == TEST_BOX ? 60 : off.first_ceiling + 1;
		SCENE_CHECK( memcmp( on.path, off.path, (size_t)same * sizeof( vec2s ) ) == 0,
					 "%s: the path changed within the first %d frames", name, same );
		SCENE_CHECK( on.widest_nudge <= 0.1f + 0.01f + 1e-5f, "%s: nudged %g sideways", name, (double)on.widest_nudge );
	}
}

// A ledge whose top is at 1.5, its face at x = 2. The character jumps from x = 0 to the right, timed to reach the top
// of its jump as it meets the ledge's corner with its bottom clip below the ledge's top (0.28, 0.21 and 0.1 for the
// circle, the capsule and the box). With a correction of clip + 0.05 it is nudged up onto the ledge; without, it is
// blocked by the face (and slides back down along the corner).
static void test_a_sideways_jump_clipping_a_ledge_is_nudged_onto_it( void** state )
{
	(void)state;
	static const float rounding[TEST_CHARACTER_COUNT] = { 0.4f, 0.3f, 0.05f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		float hw = test_character_half_width( kind );
		float half = test_character_half_height( kind );
		float r = rounding[kind];
		// Deep enough that the contact is steeper than 70 degrees (a slide along it would not lift it onto the ledge).
		float clip = fmaxf( 0.7f * r, 0.1f );
		// Where the front bottom rounding meets the corner moving level, and the jump whose top is there.
		float depth = fminf( clip, r );
		float reach = 2.0f - ( hw - r ) - sqrtf( r * r - ( r - depth ) * ( r - depth ) ) - 0.01f;
		// The frames' top: vy^2 / 2g + vy dt / 2 (each frame applies gravity, then moves).
		float rise = 1.5f - clip - 0.01f;
		float vy = GRAVITY * ( -0.5f * DT + sqrtf( 0.25f * DT * DT + 2.0f * rise / GRAVITY ) );
		float vx = reach / ( vy / GRAVITY );
		float results[2], ends_x[2];
		int corrected[2] = { 0, 0 };
		for ( int on = 0; on < 2; ++on )
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 20 );
			scene_add_box( s, 2.0f, -1.0f, 6.0f, 1.5f );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, half + 0.01f ) );
			def.corner_correction = on ? clip + 0.05f : 0.0f;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			vec2s velocity = kcc_v2( vx, vy + GRAVITY * DT );
			for ( int i = 0; i < 40; ++i ) // the ledge (4 long) is not walked off
			{
				kcc_move_result m;
				assert_int_equal( test_gravity_step( c, &velocity, vx, GRAVITY, DT, &m ), KCC_OK );
				corrected[on] += ( m.flags & KCC_CORNER_CORRECTED ) ? 1 : 0;
				SCENE_CHECK( scene_overlap( s, &def.shape, m.position ) <= 1e-3f * test_character_height( kind ),
							 "%s: overlap", name );
			}
			results[on] = kcc_controller_get_position( c ).y - half - 0.01f;
			ends_x[on] = kcc_controller_get_position( c ).x;
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
		print_message( "%-11s ledge clipped by %.3f: ends with its bottom at %.4f without correction, %.4f with (%d "
					   "frames corrected)\n", name, (double)clip, (double)results[0], (double)results[1], corrected[1] );
		SCENE_CHECK( corrected[0] == 0 && ends_x[0] < 2.0f && results[0] < 1.0f,
					 "%s: without correction ended at (%g, %g)", name, (double)ends_x[0], (double)results[0] );
		SCENE_CHECK( corrected[1] >= 1 && ends_x[1] > 2.5f && fabsf( results[1] - 1.5f ) <= 1e-3f,
					 "%s: with correction ended at (%g, %g)", name, (double)ends_x[1], (double)results[1] );
	}
}

static void test_corner_correction_out_of_range_is_refused( void** state )
{
	(void)state;
	const float bad[] = { -0.1f, NAN, INFINITY, 5.0f };
	for ( size_t i = 0; i < sizeof( bad ) / sizeof( bad[0] ); ++i )
	{
		assert_true( test_def_refuses( offsetof( kcc_controller_def, corner_correction ), bad[i], "corner_correction" ) );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_jump_clipping_a_ceiling_corner_is_nudged_around_it ),
		cmocka_unit_test( test_a_corner_beyond_the_correction_is_left_alone ),
		cmocka_unit_test( test_a_sideways_jump_clipping_a_ledge_is_nudged_onto_it ),
		cmocka_unit_test( test_corner_correction_out_of_range_is_refused ),
	};
	return cmocka_run_group_tests_name( "controller_gameplay_corner", tests, install_recorder, NULL );
}
