// SPDX-License-Identifier: MIT
// A level's state saved and restored with its character's (issue 16, item 5): rolling the world back needed
// kcc_level_reset, replaying every step and putting the crate back by hand. kcc_level_get_state / set_state save the
// clock, the platforms and the crates as plain bytes: a character rides a lift, walks off it and pushes a crate;
// restored to frame 60 (level, controller and the game's own velocity) and replayed, 200 frames match bit for bit.
// Bad states (another map, a wrong size, NaN, a locked space) are refused and change nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "test_level_support.h"

#define DT ( 1.0f / 60.0f )
#define SAVE_FRAME 60
#define REPLAY_FRAMES 200

// 40 x 12 tiles of 16 pixels, one unit per tile, y up from the map's bottom: ground up to y = 2; a lift 3 wide from
// x = 2 to 5, its top at y = 3, going up 3 units at 1.5 units/s and back; a crate from x = 8 to 9 on the ground.
static const char s_map[] =
	"{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":40,\"height\":12,\"tilewidth\":16,\"tileheight\":16,"
	"\"infinite\":false,\"layers\":[{\"type\":\"objectgroup\",\"name\":\"course\",\"id\":1,\"x\":0,\"y\":0,"
	"\"visible\":true,\"opacity\":1,\"objects\":["
	"{\"id\":1,\"name\":\"ground\",\"type\":\"solid\",\"x\":0,\"y\":160,\"width\":640,\"height\":32},"
	"{\"id\":2,\"name\":\"lift\",\"type\":\"platform\",\"x\":32,\"y\":144,\"width\":48,\"height\":8,"
	"\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":3},{\"name\":\"speed\",\"type\":\"float\","
	"\"value\":1.5}]},"
	"{\"id\":3,\"name\":\"lift path\",\"type\":\"\",\"x\":56,\"y\":148,\"width\":0,\"height\":0,"
	"\"polyline\":[{\"x\":0,\"y\":0},{\"x\":0,\"y\":-48}]},"
	"{\"id\":4,\"name\":\"crate\",\"type\":\"crate\",\"x\":128,\"y\":144,\"width\":16,\"height\":16}"
	"]}]}";

typedef struct frame_record
{
	vec2s character;
	cpVect crate, lift;
} frame_record;

typedef struct world
{
	cpSpace* space;
	kcc_level* level;
	kcc_controller* c;
	const kcc_level_object* crate;
	const kcc_level_platform* lift;
	vec2s velocity; // the game's own state: what move_and_slide handed back
} world;

static world world_open( void )
{
	world w;
	memset( &w, 0, sizeof( w ) );
	w.space = cpSpaceNew();
	cpSpaceUseSpatialHash( w.space, 2.0, 1024 );
	kcc_level_error error;
	kcc_level_status status = kcc_level_load_memory( w.space, s_map, sizeof( s_map ) - 1, "state.tmj", NULL, &w.level,
													 &error );
	if ( status != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
	}
	assert_int_equal( status, KCC_LEVEL_OK );
	w.crate = kcc_level_find( w.level, KCC_LEVEL_CRATE, "crate" );
	w.lift = kcc_level_find_platform( w.level, "lift" );
	assert_non_null( w.crate );
	assert_non_null( w.lift );
	kcc_level_def level_def = kcc_default_level_def();
	kcc_controller_def def = kcc_default_controller_def();
	def.filter.categories = level_def.solid_category;
	def.one_way_categories = level_def.one_way_category;
	def.pushable_categories = level_def.pushable_category;
	def.position = kcc_v2( 3.5f, 3.0f + 0.6f + def.skin ); // on the lift
	w.c = kcc_controller_create( w.space, &def );
	assert_non_null( w.c );
	return w;
}

static void world_close( world* w )
{
	kcc_controller_destroy( w->c );
	kcc_level_destroy( w->level );
	cpSpaceFree( w->space );
}

// One frame in the documented order: the level, then the character (standing until frame 120, then walking right).
static frame_record world_frame( world* w, int frame, bool* on_lift )
{
	assert_int_equal( kcc_level_step( w->level, DT ), KCC_OK );
	vec2s v = kcc_v2( frame >= 120 ? 4.0f : 0.0f, w->velocity.y - 30.0f * DT );
	kcc_move_result r;
	assert_int_equal( kcc_controller_move_and_slide( w->c, v, DT, &w->velocity, &r ), KCC_OK );
	*on_lift = *on_lift || ( ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == w->lift->object->shapes[0] );
	frame_record f = { r.position, cpBodyGetPosition( w->crate->body ), cpBodyGetPosition( w->lift->body ) };
	return f;
}

static void test_restore_and_replay_are_bit_identical( void** state )
{
	(void)state;
	world w = world_open();
	size_t size = kcc_level_state_size( w.level );
	assert_true( size > 0 );
	void* saved = malloc( size );
	void* again = malloc( size );
	bool on_lift = false;
	for ( int frame = 0; frame < SAVE_FRAME; ++frame )
	{
		(void)world_frame( &w, frame, &on_lift );
	}
	assert_true( on_lift );
	// Saving allocates nothing and reads the same bytes twice.
	uint64_t allocations = kcc_test_allocation_count();
	assert_int_equal( kcc_level_get_state( w.level, saved, size ), KCC_OK );
	assert_int_equal( kcc_level_get_state( w.level, again, size ), KCC_OK );
	assert_true( kcc_test_allocation_count() == allocations );
	assert_memory_equal( saved, again, size );
	kcc_controller_state character = kcc_controller_get_state( w.c );
	vec2s velocity = w.velocity;
	cpVect crate_start = cpBodyGetPosition( w.crate->body );

	static frame_record first[REPLAY_FRAMES];
	on_lift = false;
	for ( int i = 0; i < REPLAY_FRAMES; ++i )
	{
		first[i] = world_frame( &w, SAVE_FRAME + i, &on_lift );
	}
	// The window has it all: riding the lift, the lift moving, the crate pushed along the ground.
	assert_true( on_lift );
	assert_true( first[REPLAY_FRAMES - 1].crate.x > crate_start.x + 1.0 );
	assert_true( first[REPLAY_FRAMES - 1].lift.y != first[0].lift.y );

	assert_int_equal( kcc_level_set_state( w.level, saved, size ), KCC_OK );
	assert_int_equal( kcc_controller_set_state( w.c, &character ), KCC_OK );
	w.velocity = velocity;
	assert_int_equal( kcc_level_get_state( w.level, again, size ), KCC_OK );
	assert_memory_equal( saved, again, size ); // restored exactly
	assert_float_equal( kcc_level_get_time( w.level ), SAVE_FRAME * (double)DT, 1e-9 );
	for ( int i = 0; i < REPLAY_FRAMES; ++i )
	{
		frame_record f = world_frame( &w, SAVE_FRAME + i, &on_lift );
		if ( memcmp( &f, first + i, sizeof( f ) ) != 0 )
		{
			fprintf( stderr, "frame %d differs: character (%.9g, %.9g) was (%.9g, %.9g), crate x %.17g was %.17g\n",
					 SAVE_FRAME + i, (double)f.character.x, (double)f.character.y, (double)first[i].character.x,
					 (double)first[i].character.y, f.crate.x, first[i].crate.x );
		}
		assert_memory_equal( &f, first + i, sizeof( f ) );
	}
	free( saved );
	free( again );
	world_close( &w );
}

typedef struct locked_state
{
	kcc_level* level;
	const void* state;
	size_t size;
	kcc_status status;
	int calls;
} locked_state;

static void set_state_inside_query( cpShape* shape, void* data )
{
	(void)shape;
	locked_state* call = data;
	if ( call->calls++ == 0 )
	{
		call->status = kcc_level_set_state( call->level, call->state, call->size );
	}
}

static void test_bad_states_are_refused( void** state )
{
	(void)state;
	world w = world_open();
	size_t size = kcc_level_state_size( w.level );
	unsigned char* saved = malloc( size + 8 );
	unsigned char* bad = malloc( size + 8 );
	unsigned char* now = malloc( size );
	assert_int_equal( kcc_level_get_state( w.level, saved, size ), KCC_OK );
	for ( int i = 0; i < 30; ++i )
	{
		assert_int_equal( kcc_level_step( w.level, DT ), KCC_OK );
	}
	assert_int_equal( kcc_level_get_state( w.level, now, size ), KCC_OK );
	// Arguments.
	assert_int_equal( kcc_level_get_state( w.level, bad, size - 1 ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_level_get_state( NULL, bad, size ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_level_get_state( w.level, NULL, size ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_level_set_state( w.level, NULL, size ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_level_set_state( NULL, saved, size ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_level_set_state( w.level, saved, size - 1 ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_level_set_state( w.level, saved, size + 8 ), KCC_ERROR_INVALID_ARGUMENT );
	assert_true( kcc_level_state_size( NULL ) == 0 );
	// Corrupted: a NaN in the first body's x (just after the 24-byte header), a negative clock, a wrong magic.
	const double nan_value = NAN, negative = -1.0;
	memcpy( bad, saved, size );
	memcpy( bad + 24, &nan_value, sizeof( double ) );
	assert_int_equal( kcc_level_set_state( w.level, bad, size ), KCC_ERROR_INVALID_ARGUMENT );
	memcpy( bad, saved, size );
	memcpy( bad + 16, &negative, sizeof( double ) );
	assert_int_equal( kcc_level_set_state( w.level, bad, size ), KCC_ERROR_INVALID_ARGUMENT );
	memcpy( bad, saved, size );
	bad[0] ^= 0xffu;
	assert_int_equal( kcc_level_set_state( w.level, bad, size ), KCC_ERROR_INVALID_ARGUMENT );
	// From a Chipmunk callback.
	locked_state call = { w.level, saved, size, KCC_OK, 0 };
	cpSpaceBBQuery( w.space, cpBBNew( 0.0, 0.0, 10.0, 10.0 ), CP_SHAPE_FILTER_ALL, set_state_inside_query, &call );
	assert_true( call.calls >= 1 );
	assert_int_equal( call.status, KCC_ERROR_SPACE_LOCKED );
	// Nothing changed.
	unsigned char* after = malloc( size );
	assert_int_equal( kcc_level_get_state( w.level, after, size ), KCC_OK );
	assert_memory_equal( after, now, size );
	// A state of another map (features.tmj: other bodies) is refused, even cut to this size.
	cpSpace* other_space = cpSpaceNew();
	kcc_level* other = level_load( other_space, "features.tmj", NULL );
	size_t other_size = kcc_level_state_size( other );
	unsigned char* foreign = malloc( other_size > size ? other_size : size );
	assert_int_equal( kcc_level_get_state( other, foreign, other_size ), KCC_OK );
	assert_int_equal( kcc_level_set_state( w.level, foreign, other_size ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_level_set_state( w.level, foreign, size ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_level_get_state( w.level, after, size ), KCC_OK );
	assert_memory_equal( after, now, size );
	// The good one still restores.
	assert_int_equal( kcc_level_set_state( w.level, saved, size ), KCC_OK );
	assert_int_equal( kcc_level_get_state( w.level, after, size ), KCC_OK );
	assert_memory_equal( after, saved, size );
	kcc_level_destroy( other );
	cpSpaceFree( other_space );
	free( foreign );
	free( after );
	free( saved );
	free( bad );
	free( now );
	world_close( &w );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_restore_and_replay_are_bit_identical ),
		cmocka_unit_test( test_bad_states_are_refused ),
	};
	return cmocka_run_group_tests_name( "level state", tests, NULL, NULL );
}
