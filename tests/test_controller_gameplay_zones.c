// SPDX-License-Identifier: MIT
// Zones (sensor shapes) as a game uses them (property 15; seed 004's checkpoints, slow zones and speed bumps), for the
// circle, the capsule and the rounded box:
// - a dash at 60 u/s through a 0.1 wide checkpoint reports its BEGIN then its END in that one move, where the path
//   really met it (the issue saw nothing); several checkpoints in one move come in path order; more events than
//   KCC_MAX_SENSOR_EVENTS are flagged;
// - a slow zone halves the walk from the frame its BEGIN is reported to the frame of its END: the crossing takes the
//   frames the speeds predict, and the game's "inside" state always equals what overlaps the character;
// - speed bumps (thin zones) slow a character crossing them at any speed: every bump's BEGIN is reported;
// - sensor_mask decides which sensors are reported, whatever the character's filter and the sensor's own mask;
// - a zone the character is carried into by a platform, teleported out of, or that the game removes ends properly;
// - no heap allocation in a move that crosses zones.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define WALK 6.0f

#define LEVEL_CATEGORY 1u
#define ZONE_CATEGORY 2u
#define OTHER_ZONE_CATEGORY 4u

// A floor of tiles (top at 0) from x = -10 to 40, in LEVEL_CATEGORY.
static scene* zone_level( void )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -10, -1, 50 );
	for ( int i = 0; i < s->count; ++i )
	{
		cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
	return s;
}

static kcc_controller* zone_character( scene* s, int kind, float x, kcc_controller_def* def )
{
	*def = test_character_def( kind, kcc_v2( x, test_character_half_height( kind ) + 0.01f ) );
	kcc_controller* c = scene_create_controller( s, def );
	assert_non_null( c );
	return c;
}

// A zone spanning x in [x0, x1], 3 tall from the floor.
static cpShape* add_zone( scene* s, float x0, float x1, cpBitmask categories )
{
	return scene_add_sensor_box( s, x0, 0.0f, x1, 3.0f, categories );
}

// The dash: one move of 1.0 (60 u/s at 60 Hz) from x = 0 through a checkpoint [0.45, 0.55]. BEGIN where the front
// reaches 0.45, END where the back leaves 0.55, in that order, and the checkpoint not listed at the end.
static void test_a_dash_through_a_thin_checkpoint_reports_begin_and_end( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int mode = 0; mode < 2; ++mode )
		{
			const char* name = test_character_name( kind );
			scene* s = zone_level();
			kcc_controller_def def;
			kcc_controller* c = zone_character( s, kind, 0.0f, &def );
			if ( mode == 1 )
			{
				kcc_controller_destroy( c );
				def.mode = KCC_MODE_FLOATING;
				c = kcc_controller_create( s->space, &def );
				assert_non_null( c );
			}
			cpShape* checkpoint = add_zone( s, 0.45f, 0.55f, ZONE_CATEGORY );
			kcc_move_result r;
			vec2s out;
			assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 60.0f, 0.0f ), DT, &out, &r ), KCC_OK );
			float hw = test_character_half_width( kind );
			print_message( "%-11s %s dash: %d events", name, mode ? "floating" : "grounded", r.sensor_event_count );
			for ( int i = 0; i < r.sensor_event_count; ++i )
			{
				print_message( " %s at %.4f", r.sensor_events[i].type == KCC_SENSOR_BEGIN ? "BEGIN" : "END",
							   (double)r.sensor_events[i].travel );
			}
			print_message( "\n" );
			SCENE_CHECK( fabsf( r.position.x - 1.0f ) <= 1e-5f, "%s: dashed to %g", name, (double)r.position.x );
			SCENE_CHECK( r.sensor_event_count == 2, "%s: %d events for one checkpoint", name, r.sensor_event_count );
			SCENE_CHECK( r.sensor_events[0].shape == checkpoint && r.sensor_events[0].type == KCC_SENSOR_BEGIN &&
							 r.sensor_events[1].shape == checkpoint && r.sensor_events[1].type == KCC_SENSOR_END,
						 "%s: not BEGIN then END of the checkpoint", name );
			SCENE_CHECK( fabsf( r.sensor_events[0].travel - ( 0.45f - hw ) ) <= 1e-3f &&
							 fabsf( r.sensor_events[1].travel - ( 0.55f + hw ) ) <= 1e-3f,
						 "%s: BEGIN at %g (front at 0.45: %g), END at %g (back at 0.55: %g)", name,
						 (double)r.sensor_events[0].travel, (double)( 0.45f - hw ), (double)r.sensor_events[1].travel,
						 (double)( 0.55f + hw ) );
			SCENE_CHECK( r.sensor_count == 0, "%s: %d sensors listed at the end", name, r.sensor_count );
			// The next move, standing beyond it: nothing more.
			assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 0.0f, 0.0f ), DT, &out, &r ), KCC_OK );
			SCENE_CHECK( r.sensor_event_count == 0, "%s: %d events standing still after the dash", name,
						 r.sensor_event_count );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Three checkpoints crossed in one move come BEGIN / END pair by pair in path order; 20 of them (40 events) overflow
// KCC_MAX_SENSOR_EVENTS: the first 32 in path order are kept and KCC_SENSOR_EVENTS_TRUNCATED is set.
static void test_many_checkpoints_in_one_move( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		for ( int many = 0; many < 2; ++many )
		{
			int count = many ? 20 : 3;
			scene* s = zone_level();
			kcc_controller_def def;
			kcc_controller* c = zone_character( s, kind, 0.0f, &def );
			cpShape* zones[20];
			// Added in reverse order: the report follows the path, not the space.
			for ( int i = count - 1; i >= 0; --i )
			{
				zones[i] = add_zone( s, 1.0f + 1.5f * (float)i, 1.1f + 1.5f * (float)i, ZONE_CATEGORY );
			}
			kcc_move_result r;
			assert_int_equal( kcc_controller_move( c, kcc_v2( 1.5f * (float)count + 2.0f, 0.0f ), &r ), KCC_OK );
			int expected = 2 * count < KCC_MAX_SENSOR_EVENTS ? 2 * count : KCC_MAX_SENSOR_EVENTS;
			SCENE_CHECK( r.sensor_event_count == expected, "%s: %d events for %d checkpoints", name,
						 r.sensor_event_count, count );
			for ( int i = 0; i < r.sensor_event_count; ++i )
			{
				SCENE_CHECK( r.sensor_events[i].shape == zones[i / 2] &&
								 r.sensor_events[i].type == ( i % 2 == 0 ? KCC_SENSOR_BEGIN : KCC_SENSOR_END ),
							 "%s: event %d is not the %s of checkpoint %d", name, i, i % 2 == 0 ? "BEGIN" : "END", i / 2 );
				SCENE_CHECK( i == 0 || r.sensor_events[i].travel > r.sensor_events[i - 1].travel,
							 "%s: event %d out of path order", name, i );
			}
			SCENE_CHECK( ( ( r.flags & KCC_SENSOR_EVENTS_TRUNCATED ) != 0 ) == ( many != 0 ),
						 "%s: %d checkpoints, flags 0x%x", name, count, (unsigned)r.flags );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// A game's zone bookkeeping from the events: how many zones of a kind the character is inside.
typedef struct zone_book
{
	int inside;
	int begins;
	int ends;
} zone_book;

static void zone_book_read( zone_book* b, const kcc_move_result* r, const cpShape* const* zones, int zone_count )
{
	for ( int i = 0; i < r->sensor_event_count; ++i )
	{
		for ( int z = 0; z < zone_count; ++z )
		{
			if ( r->sensor_events[i].shape == zones[z] )
			{
				bool begin = r->sensor_events[i].type == KCC_SENSOR_BEGIN;
				b->inside += begin ? 1 : -1;
				b->begins += begin ? 1 : 0;
				b->ends += begin ? 0 : 1;
			}
		}
	}
}

static bool listed( const kcc_move_result* r, const cpShape* shape )
{
	for ( int i = 0; i < r->sensor_count; ++i )
	{
		if ( r->sensors[i] == shape )
		{
			return true;
		}
	}
	return false;
}

// A slow zone over x in [4, 8]: the game walks at 6, at 3 while inside (from the frame after the BEGIN to the frame
// of the END). The frames to reach x = 12 are those of walking at 6 to the zone, at 3 through it (the character's
// width plus 4), at 6 after, within a frame each way; inside never goes below 0 and always matches sensors[].
static void test_a_slow_zone_as_a_game_uses_it( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = zone_level();
		kcc_controller_def def;
		kcc_controller* c = zone_character( s, kind, 0.0f, &def );
		const cpShape* slow = add_zone( s, 4.0f, 8.0f, ZONE_CATEGORY );
		zone_book book = { 0, 0, 0 };
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		int frames = 0;
		uint64_t before = kcc_test_allocation_count();
		while ( kcc_controller_get_position( c ).x < 12.0f && frames < 400 )
		{
			kcc_move_result r;
			assert_int_equal( test_gravity_step( c, &velocity, book.inside > 0 ? 0.5f * WALK : WALK, GRAVITY, DT, &r ),
							  KCC_OK );
			zone_book_read( &book, &r, &slow, 1 );
			SCENE_CHECK( book.inside == ( listed( &r, slow ) ? 1 : 0 ), "%s frame %d: the events say inside %d, the "
																		"overlap says %d", name, frames, book.inside,
						 listed( &r, slow ) ? 1 : 0 );
			frames += 1;
		}
		uint64_t allocations = kcc_test_allocation_count() - before;
		float hw = test_character_half_width( kind );
		// At 6 to the zone (front at 4), at 3 through 4 + 2 hw (back at 8), at 6 on to 12.
		float expected = ( ( 4.0f - hw ) / WALK + ( 4.0f + 2.0f * hw ) / ( 0.5f * WALK ) + ( 12.0f - 8.0f - hw ) / WALK ) / DT;
		print_message( "%-11s slow zone: %d frames to x = 12 (speeds predict %.1f), %d BEGIN, %d END\n", name, frames,
					   (double)expected, book.begins, book.ends );
		SCENE_CHECK( book.begins == 1 && book.ends == 1, "%s: %d BEGIN, %d END", name, book.begins, book.ends );
		SCENE_CHECK( fabsf( (float)frames - expected ) <= 2.0f, "%s: %d frames, the speeds predict %.1f", name, frames,
					 (double)expected );
		SCENE_CHECK( allocations == 0, "%s: %llu allocations crossing a zone", name, (unsigned long long)allocations );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// Speed bumps: ten zones 0.1 wide, 2 apart. Crossing one cuts the speed to a third for 10 frames (the game counts
// BEGIN events). Walking at 6 or dashing at 40, every bump is met once (the end position alone would miss most).
static void test_speed_bumps_are_met_at_any_speed( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		for ( int fast = 0; fast < 2; ++fast )
		{
			scene* s = zone_level();
			kcc_controller_def def;
			kcc_controller* c = zone_character( s, kind, 0.0f, &def );
			cpShape* bumps[10];
			for ( int i = 0; i < 10; ++i )
			{
				bumps[i] = add_zone( s, 2.0f + 2.0f * (float)i, 2.1f + 2.0f * (float)i, ZONE_CATEGORY );
			}
			zone_book book = { 0, 0, 0 };
			int slowed = 0, seen_at_end = 0, frames = 0;
			float speed = fast ? 40.0f : WALK;
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			while ( kcc_controller_get_position( c ).x < 23.0f && frames < 600 )
			{
				kcc_move_result r;
				int begins = book.begins;
				assert_int_equal( test_gravity_step( c, &velocity, slowed > 0 ? speed / 3.0f : speed, GRAVITY, DT, &r ),
								  KCC_OK );
				zone_book_read( &book, &r, (const cpShape* const*)bumps, 10 );
				slowed = book.begins > begins ? 10 : ( slowed > 0 ? slowed - 1 : 0 );
				seen_at_end += r.sensor_count > 0 ? 1 : 0;
				frames += 1;
			}
			print_message( "%-11s bumps at %g u/s: %d BEGIN, %d END in %d frames (%d frames ended on a bump)\n", name,
						   (double)speed, book.begins, book.ends, frames, seen_at_end );
			SCENE_CHECK( book.begins == 10 && book.ends == 10, "%s at %g: %d BEGIN and %d END for 10 bumps", name,
						 (double)speed, book.begins, book.ends );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// sensor_mask: the character's filter does not see ZONE_CATEGORY at all (its mask is the level only), and the zone's
// own filter has a group and a mask without the character's category: reported with the default sensor_mask; with a
// sensor_mask of OTHER_ZONE_CATEGORY only the other zone is, even with a filter that sees everything. (A sensor
// whose own mask is 0 is found by no Chipmunk query at all.)
static void test_sensor_mask_is_independent_of_the_filter( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		for ( int variant = 0; variant < 2; ++variant )
		{
			scene* s = zone_level();
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
			if ( variant == 0 )
			{
				def.filter = cpShapeFilterNew( CP_NO_GROUP, 8u, LEVEL_CATEGORY );
			}
			else
			{
				def.sensor_mask = OTHER_ZONE_CATEGORY;
			}
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			cpShape* zone = add_zone( s, 1.0f, 2.0f, ZONE_CATEGORY );
			cpShapeSetFilter( zone, cpShapeFilterNew( 7, ZONE_CATEGORY, 16u ) ); // its own mask: not the character
			cpShape* other = add_zone( s, 3.0f, 4.0f, OTHER_ZONE_CATEGORY );
			kcc_move_result r;
			assert_int_equal( kcc_controller_move( c, kcc_v2( 5.0f, 0.0f ), &r ), KCC_OK );
			bool zone_seen = false, other_seen = false;
			for ( int i = 0; i < r.sensor_event_count; ++i )
			{
				zone_seen |= r.sensor_events[i].shape == zone;
				other_seen |= r.sensor_events[i].shape == other;
			}
			SCENE_CHECK( fabsf( r.position.x - 5.0f ) <= 1e-5f, "%s: stopped at %g", name, (double)r.position.x );
			if ( variant == 0 )
			{
				SCENE_CHECK( zone_seen && other_seen, "%s: a filter blind to zones hid them (%d, %d)", name, zone_seen,
							 other_seen );
			}
			else
			{
				SCENE_CHECK( zone_seen == false && other_seen, "%s: sensor_mask OTHER reported zone %d, other %d", name,
							 zone_seen, other_seen );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// A platform carries the standing character (no input) through a zone: BEGIN then END in later frames, each once.
// Teleported out of a zone: its END in the next move. A zone the game removes while the character is inside: its END
// (the shape then only an identity) in the next move.
static void test_zones_entered_by_a_carry_left_by_a_teleport_or_removed( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = zone_level();
		cpShape* lift = scene_add_body_box( s, kcc_v2( 0.0f, 2.0f ), kcc_v2( 1.0f, 0.2f ), 0.0f, 0.0f, LEVEL_CATEGORY );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 2.2f + test_character_half_height( kind ) + 0.01f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		cpShape* zone = scene_add_sensor_box( s, 3.0f, 0.0f, 3.5f, 6.0f, ZONE_CATEGORY );
		zone_book book = { 0, 0, 0 };
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		for ( int i = 0; i < 150; ++i )
		{
			scene_place_body( s, cpShapeGetBody( lift ), kcc_v2( 0.05f * (float)( i + 1 ), 2.0f ) );
			kcc_move_result r;
			assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
			SCENE_CHECK( r.floor_shape == lift, "%s frame %d: not on the lift", name, i );
			zone_book_read( &book, &r, (const cpShape* const*)&zone, 1 );
		}
		SCENE_CHECK( book.begins == 1 && book.ends == 1 && book.inside == 0,
					 "%s: carried through the zone: %d BEGIN, %d END", name, book.begins, book.ends );
		kcc_controller_destroy( c );

		// Teleport out, and removal.
		kcc_controller_def d2 = test_character_def( kind, kcc_v2( 10.0f, test_character_half_height( kind ) + 0.01f ) );
		c = kcc_controller_create( s->space, &d2 );
		cpShape* room = add_zone( s, 9.0f, 11.0f, ZONE_CATEGORY );
		cpShape* doomed = add_zone( s, 9.5f, 10.5f, ZONE_CATEGORY );
		kcc_move_result r;
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
		SCENE_CHECK( r.sensor_event_count == 2 && r.sensor_events[0].type == KCC_SENSOR_BEGIN &&
						 r.sensor_events[1].type == KCC_SENSOR_BEGIN, "%s: standing in two zones: %d events", name,
					 r.sensor_event_count );
		scene_remove_extra( s, doomed );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
		SCENE_CHECK( r.sensor_event_count == 1 && r.sensor_events[0].type == KCC_SENSOR_END &&
						 r.sensor_events[0].shape == doomed, "%s: removed zone: %d events", name, r.sensor_event_count );
		assert_int_equal( kcc_controller_set_position( c, kcc_v2( 20.0f, test_character_half_height( kind ) + 0.01f ) ),
						  KCC_OK );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
		SCENE_CHECK( r.sensor_event_count == 1 && r.sensor_events[0].type == KCC_SENSOR_END &&
						 r.sensor_events[0].shape == room, "%s: teleported out: %d events", name, r.sensor_event_count );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
		SCENE_CHECK( r.sensor_event_count == 0, "%s: %d events after leaving", name, r.sensor_event_count );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// A dash through checkpoints allocates nothing.
static void test_crossing_zones_allocates_nothing( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = zone_level();
		kcc_controller_def def;
		kcc_controller* c = zone_character( s, kind, 0.0f, &def );
		for ( int i = 0; i < 10; ++i )
		{
			add_zone( s, 1.0f + 2.0f * (float)i, 1.1f + 2.0f * (float)i, ZONE_CATEGORY );
		}
		int events = 0;
		uint64_t before = kcc_test_allocation_count();
		for ( int i = 0; i < 20; ++i )
		{
			kcc_move_result r;
			assert_int_equal( kcc_controller_move( c, kcc_v2( 1.0f, 0.0f ), &r ), KCC_OK );
			events += r.sensor_event_count;
		}
		uint64_t after = kcc_test_allocation_count();
		SCENE_CHECK( events == 20, "%s: %d events for 10 checkpoints", test_character_name( kind ), events );
		SCENE_CHECK( after == before, "%s: %llu allocations", test_character_name( kind ),
					 (unsigned long long)( after - before ) );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_dash_through_a_thin_checkpoint_reports_begin_and_end ),
		cmocka_unit_test( test_many_checkpoints_in_one_move ),
		cmocka_unit_test( test_a_slow_zone_as_a_game_uses_it ),
		cmocka_unit_test( test_speed_bumps_are_met_at_any_speed ),
		cmocka_unit_test( test_sensor_mask_is_independent_of_the_filter ),
		cmocka_unit_test( test_zones_entered_by_a_carry_left_by_a_teleport_or_removed ),
		cmocka_unit_test( test_crossing_zones_allocates_nothing ),
	};
	return cmocka_run_group_tests_name( "controller_gameplay_zones", tests, NULL, NULL );
}
