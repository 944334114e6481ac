// SPDX-License-Identifier: MIT
// Debug drawing of a character's move (controller/debug_draw.c), on a real cpSpace:
// - a move into a wall draws the character where it ended, its path, each contact's point and normal in white and
//   its slide tangent in magenta (perpendicular to the normal, along the motion), the wanted direction in yellow
//   from the start, the floor normal from the lowest point, and the wall / floor labels in their colours;
// - a dash through a thin zone labels the zone's begin and end where they happened along the path, with the name
//   the draw's name_of gives;
// - NULL arguments and out-of-range counts in a result are safe, and drawing never allocates;
// - kcc_space_each_shape gives every shape of a space (circles, segments, polygons on static and moving bodies,
//   sensors, the character's own) in world coordinates with Chipmunk's bounding boxes, degenerate polygons invalid;
//   kcc_debug_draw_space draws them in the colours its style callback picks, skipping what it refuses.
#include "kcc/controller.h"
#include "kcc/debug_draw.h"

#include "alloc_count.h"
#include "debug_draw_recorder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

typedef struct test_world
{
	cpSpace* space;
	cpShape* floor;
	cpShape* wall;
	cpShape* zone;
	kcc_controller* player;
} test_world;

static cpShape* add_box( cpSpace* space, double min_x, double min_y, double max_x, double max_y, bool sensor )
{
	cpShape* shape = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( min_x, min_y, max_x, max_y ), 0.0 );
	cpShapeSetSensor( shape, sensor ? cpTrue : cpFalse );
	return cpSpaceAddShape( space, shape );
}

// A floor (top at y = 0), a wall whose face is at x = 2, a zone 0.1 wide at x in [-3, -2.9], the default capsule
// standing at the origin.
static int world_setup( void** state )
{
	test_world* w = calloc( 1, sizeof( test_world ) );
	w->space = cpSpaceNew();
	w->floor = add_box( w->space, -20.0, -1.0, 20.0, 0.0, false );
	w->wall = add_box( w->space, 2.0, 0.0, 3.0, 5.0, false );
	w->zone = add_box( w->space, -3.0, 0.0, -2.9, 3.0, true );
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 0.0f, 0.6f + def.skin );
	w->player = kcc_controller_create( w->space, &def );
	assert_non_null( w->player );
	*state = w;
	return 0;
}

static int world_teardown( void** state )
{
	test_world* w = *state;
	kcc_controller_destroy( w->player );
	cpSpaceRemoveShape( w->space, w->floor );
	cpSpaceRemoveShape( w->space, w->wall );
	cpSpaceRemoveShape( w->space, w->zone );
	cpShapeFree( w->floor );
	cpShapeFree( w->wall );
	cpShapeFree( w->zone );
	cpSpaceFree( w->space );
	free( w );
	return 0;
}

static bool near( vec2s a, vec2s b, float tolerance )
{
	return glms_vec2_distance( a, b ) <= tolerance;
}

// The segment of this colour starting at a, or NULL.
static const recorder_item* segment_from( const recorder* r, vec2s a, kcc_color color )
{
	for ( int i = 0; i < r->item_count; ++i )
	{
		const recorder_item* item = r->items + i;
		if ( item->kind == REC_SEGMENT && colors_equal( item->color, color ) && near( item->a, a, 1.0e-6f ) )
		{
			return item;
		}
	}
	return NULL;
}

static void test_a_move_into_a_wall_draws_shape_path_contacts_and_labels( void** state )
{
	test_world* w = *state;
	vec2s wanted = kcc_v2( 2.5f, -0.2f );
	kcc_move_result result;
	assert_int_equal( kcc_controller_move( w->player, wanted, &result ), KCC_OK );
	assert_true( ( result.flags & KCC_ON_WALL ) && ( result.flags & KCC_ON_FLOOR ) );
	assert_true( result.collision_count >= 1 && result.path_count >= 2 );

	static recorder r;
	kcc_debug_draw draw = recorder_draw( &r );
	kcc_debug_draw_move( &draw, w->player, wanted, &result );
	assert_false( r.overflow );

	// The character where the move ended.
	assert_int_equal( recorder_count( &r, REC_CAPSULE, draw.shape_color ), 1 );
	const recorder_item* body = NULL;
	for ( int i = 0; i < r.item_count; ++i )
	{
		body = r.items[i].kind == REC_CAPSULE ? r.items + i : body;
	}
	assert_true( near( body->a, glms_vec2_add( result.position, kcc_v2( 0.0f, -0.3f ) ), 0.0f ) );
	assert_true( near( body->b, glms_vec2_add( result.position, kcc_v2( 0.0f, 0.3f ) ), 0.0f ) );
	assert_float_equal( body->radius, 0.3f, 0.0f );

	// The path: a segment between consecutive points and a dot at each.
	assert_int_equal( recorder_count( &r, REC_SEGMENT, draw.path_color ), result.path_count - 1 );
	assert_int_equal( recorder_count( &r, REC_POINT, draw.path_color ), result.path_count );
	for ( int i = 0; i + 1 < result.path_count; ++i )
	{
		const recorder_item* s = segment_from( &r, result.path[i], draw.path_color );
		assert_non_null( s );
		assert_true( near( s->b, result.path[i + 1], 0.0f ) );
	}

	// Each contact: a white dot, a white normal of arrow_length (plus its two barbs), a magenta tangent along the
	// motion.
	assert_int_equal( recorder_count( &r, REC_POINT, draw.hit_color ), result.collision_count );
	for ( int i = 0; i < result.collision_count; ++i )
	{
		const kcc_collision* hit = result.collisions + i;
		const recorder_item* normal = segment_from( &r, hit->point, draw.hit_color );
		assert_non_null( normal );
		assert_true( near( normal->b, glms_vec2_muladds( hit->normal, draw.arrow_length, hit->point ), 1.0e-6f ) );
		const recorder_item* tangent = segment_from( &r, hit->point, draw.tangent_color );
		assert_non_null( tangent );
		vec2s t = glms_vec2_sub( tangent->b, tangent->a );
		assert_float_equal( glms_vec2_norm( t ), draw.arrow_length, 1.0e-6f );
		assert_float_equal( glms_vec2_dot( t, hit->normal ), 0.0f, 1.0e-6f );
		assert_true( glms_vec2_dot( t, wanted ) > 0.0f );
	}
	// The wall's tangent points down (the wanted motion's part along the wall), the floor's to the right.
	bool wall_seen = false;
	for ( int i = 0; i < result.collision_count; ++i )
	{
		if ( result.collisions[i].flags & KCC_ON_WALL )
		{
			const recorder_item* tangent = segment_from( &r, result.collisions[i].point, draw.tangent_color );
			assert_true( tangent->b.y < tangent->a.y );
			wall_seen = true;
		}
	}
	assert_true( wall_seen );

	// The wanted direction, from the start, twice arrow_length long.
	const recorder_item* motion = segment_from( &r, result.path[0], draw.motion_color );
	assert_non_null( motion );
	vec2s direction = glms_vec2_normalize( wanted );
	assert_true( near( motion->b, glms_vec2_muladds( direction, 2.0f * draw.arrow_length, result.path[0] ), 1.0e-5f ) );

	// The floor normal from the capsule's lowest point.
	vec2s foot = glms_vec2_add( result.position, kcc_v2( 0.0f, -0.6f ) );
	const recorder_item* floor_normal = NULL;
	for ( int i = 0; i < r.item_count; ++i )
	{
		if ( r.items[i].kind == REC_SEGMENT && colors_equal( r.items[i].color, draw.floor_color ) &&
			 near( r.items[i].a, foot, 1.0e-6f ) )
		{
			floor_normal = r.items + i;
		}
	}
	assert_non_null( floor_normal );
	vec2s tip = glms_vec2_add( floor_normal->a, kcc_v2( 0.0f, draw.arrow_length ) );
	assert_true( near( floor_normal->b, tip, 1.0e-5f ) );

	// Labels above the character, in their colours.
	const recorder_item* wall = recorder_find_text( &r, "wall" );
	const recorder_item* floor = recorder_find_text( &r, "floor" );
	assert_non_null( wall );
	assert_non_null( floor );
	assert_true( colors_equal( wall->color, draw.wall_color ) && colors_equal( floor->color, draw.floor_color ) );
	assert_true( wall->a.y > result.position.y + 0.6f && floor->a.y > result.position.y + 0.6f );
	assert_null( recorder_find_text( &r, "ceiling" ) );
}

static const char* name_of_zone( const void* shape, void* context )
{
	recorder* r = context;
	(void)r;
	return shape != NULL ? "checkpoint" : NULL;
}

static void test_zone_events_are_labelled_where_they_happened( void** state )
{
	test_world* w = *state;
	assert_int_equal( kcc_controller_set_position( w->player, kcc_v2( 0.0f, 0.6f + 0.01f ) ), KCC_OK );
	vec2s wanted = kcc_v2( -5.0f, 0.0f );
	kcc_move_result result;
	assert_int_equal( kcc_controller_move( w->player, wanted, &result ), KCC_OK );
	assert_int_equal( result.sensor_event_count, 2 );

	static recorder r;
	kcc_debug_draw draw = recorder_draw( &r );
	draw.name_of = name_of_zone;
	kcc_debug_draw_move( &draw, w->player, wanted, &result );
	const recorder_item* begin = recorder_find_text( &r, "+checkpoint" );
	const recorder_item* end = recorder_find_text( &r, "-checkpoint" );
	assert_non_null( begin );
	assert_non_null( end );
	assert_true( colors_equal( begin->color, draw.event_color ) );
	// Entering: the capsule's left side (x - 0.3) meets the zone's right edge at -2.9; leaving: its right side passes
	// the left edge at -3.
	assert_float_equal( begin->a.x, -2.6f, 1.0e-3f );
	assert_float_equal( end->a.x, -3.3f, 1.0e-3f );
	assert_int_equal( recorder_count( &r, REC_POINT, draw.event_color ), 2 );

	// Without name_of the zone is "zone".
	draw = recorder_draw( &r );
	kcc_debug_draw_move( &draw, w->player, wanted, &result );
	assert_non_null( recorder_find_text( &r, "+zone" ) );
	assert_non_null( recorder_find_text( &r, "-zone" ) );
}

static void test_bad_input_is_safe_and_nothing_allocates( void** state )
{
	test_world* w = *state;
	kcc_move_result result;
	assert_int_equal( kcc_controller_move( w->player, kcc_v2( 0.5f, 0.0f ), &result ), KCC_OK );
	static recorder r;
	kcc_debug_draw draw = recorder_draw( &r );

	uint64_t before = kcc_test_allocation_count();
	kcc_debug_draw_move( &draw, w->player, kcc_v2( 0.5f, 0.0f ), &result );
	assert_true( kcc_test_allocation_count() == before );
	assert_true( r.item_count > 0 );

	draw = recorder_draw( &r );
	kcc_debug_draw_move( NULL, w->player, kcc_v2( 1.0f, 0.0f ), &result );
	kcc_debug_draw_move( &draw, w->player, kcc_v2( 1.0f, 0.0f ), NULL );
	assert_int_equal( r.item_count, 0 );

	// No controller: everything but the shape.
	kcc_debug_draw_move( &draw, NULL, kcc_v2( 1.0f, 0.0f ), &result );
	assert_int_equal( r.counts[REC_CAPSULE], 0 );
	assert_true( recorder_count( &r, REC_SEGMENT, draw.motion_color ) == 3 );

	// Counts out of range are clamped, a NaN wanted draws no motion arrow, a NaN position draws nothing.
	kcc_move_result broken = result;
	broken.path_count = -3;
	broken.collision_count = 100000;
	broken.sensor_event_count = 100000;
	draw = recorder_draw( &r );
	kcc_debug_draw_move( &draw, w->player, kcc_v2( NAN, 0.0f ), &broken );
	assert_int_equal( recorder_count( &r, REC_SEGMENT, draw.motion_color ), 0 );
	assert_int_equal( recorder_count( &r, REC_POINT, draw.path_color ), 0 );
	broken.position = kcc_v2( NAN, 0.0f );
	draw = recorder_draw( &r );
	kcc_debug_draw_move( &draw, w->player, kcc_v2( 1.0f, 0.0f ), &broken );
	assert_int_equal( r.item_count, 0 );
	// A draw without callbacks does nothing.
	kcc_debug_draw empty = kcc_default_debug_draw();
	kcc_debug_draw_move( &empty, w->player, kcc_v2( 1.0f, 0.0f ), &result );
}

typedef struct shape_record
{
	const cpShape* shape[32];
	kcc_shape world[32];
	int count;
} shape_record;

static void record_shape( const cpShape* shape, const kcc_shape* world, void* context )
{
	shape_record* r = context;
	if ( r->count < 32 )
	{
		r->shape[r->count] = shape;
		r->world[r->count] = *world;
		r->count += 1;
	}
}

static int find_record( const shape_record* r, const cpShape* shape )
{
	for ( int i = 0; i < r->count; ++i )
	{
		if ( r->shape[i] == shape )
		{
			return i;
		}
	}
	return -1;
}

static bool skip_sensors( const cpShape* shape, kcc_color* line, kcc_color* fill, void* context )
{
	(void)context;
	*line = KCC_COLOR( 1, 2, 3, 255 );
	*fill = KCC_COLOR( 4, 5, 6, 100 );
	return cpShapeGetSensor( shape ) == cpFalse;
}

static void test_space_shapes_in_world_coordinates( void** state )
{
	test_world* w = *state;
	cpSpace* space = w->space;
	cpBody* turned = cpSpaceAddBody( space, cpBodyNewKinematic() );
	cpBodySetPosition( turned, cpv( 5.0, 3.0 ) );
	cpBodySetAngle( turned, 0.5 );
	cpShape* plank = cpSpaceAddShape( space, cpBoxShapeNew( turned, 3.0, 0.4, 0.05 ) );
	cpShape* ball = cpSpaceAddShape( space, cpCircleShapeNew( turned, 0.5, cpv( 1.0, 1.0 ) ) );
	cpBody* ground = cpSpaceGetStaticBody( space );
	cpShape* rail = cpSpaceAddShape( space, cpSegmentShapeNew( ground, cpv( -4.0, 2.0 ), cpv( -1.0, 3.0 ), 0.1 ) );
	cpShape* flat = cpSpaceAddShape( space, cpBoxShapeNew2( ground, cpBBNew( 6.0, 0.0, 8.0, 0.0 ), 0.0 ) );
	cpSpaceReindexShapesForBody( space, turned );

	static shape_record r;
	r.count = 0;
	uint64_t before = kcc_test_allocation_count();
	kcc_space_each_shape( space, record_shape, &r );
	assert_true( kcc_test_allocation_count() == before );
	// floor, wall, zone, the character, plank, ball, rail, flat
	assert_int_equal( r.count, 8 );
	const cpShape* all[] = { w->floor, w->wall, w->zone, kcc_controller_get_shape( w->player ), plank, ball, rail };
	for ( size_t i = 0; i < sizeof( all ) / sizeof( all[0] ); ++i )
	{
		int k = find_record( &r, all[i] );
		assert_true( k >= 0 );
		assert_true( kcc_shape_is_valid( &r.world[k] ) );
		cpBB bb = cpShapeGetBB( all[i] );
		kcc_aabb bounds = kcc_shape_bounds( &r.world[k] );
		assert_float_equal( bounds.min.x, (float)bb.l, 1.0e-5f );
		assert_float_equal( bounds.min.y, (float)bb.b, 1.0e-5f );
		assert_float_equal( bounds.max.x, (float)bb.r, 1.0e-5f );
		assert_float_equal( bounds.max.y, (float)bb.t, 1.0e-5f );
	}
	assert_int_equal( r.world[find_record( &r, ball )].type, KCC_SHAPE_CIRCLE );
	assert_int_equal( r.world[find_record( &r, rail )].type, KCC_SHAPE_CAPSULE );
	const kcc_shape* p = &r.world[find_record( &r, plank )];
	assert_int_equal( p->type, KCC_SHAPE_POLYGON );
	assert_int_equal( p->polygon.count, 4 );
	assert_float_equal( p->polygon.radius, 0.05f, 1.0e-7f );
	// A box of zero height has no area: invalid, and never asserts.
	assert_false( kcc_shape_is_valid( &r.world[find_record( &r, flat )] ) );

	// Drawn: every valid shape but the sensor, in the style's colours.
	static recorder rec;
	kcc_debug_draw draw = recorder_draw( &rec );
	kcc_debug_draw_space( &draw, space, skip_sensors, NULL );
	int outlines = rec.counts[REC_POLYGON] + rec.counts[REC_CIRCLE] + rec.counts[REC_CAPSULE];
	assert_int_equal( outlines, 6 ); // floor, wall, character, plank, ball, rail
	assert_int_equal( recorder_count( &rec, REC_SOLID_POLYGON, KCC_COLOR( 4, 5, 6, 100 ) ), 6 );
	assert_int_equal( recorder_count( &rec, REC_POLYGON, KCC_COLOR( 1, 2, 3, 255 ) ) +
						  recorder_count( &rec, REC_CIRCLE, KCC_COLOR( 1, 2, 3, 255 ) ) +
						  recorder_count( &rec, REC_CAPSULE, KCC_COLOR( 1, 2, 3, 255 ) ),
					  6 );
	// No style: every valid shape in shape_color.
	draw = recorder_draw( &rec );
	kcc_debug_draw_space( &draw, space, NULL, NULL );
	assert_int_equal( rec.counts[REC_POLYGON] + rec.counts[REC_CIRCLE] + rec.counts[REC_CAPSULE], 7 );
	assert_int_equal( rec.counts[REC_SOLID_POLYGON], 0 );
	// Bad input: nothing.
	kcc_space_each_shape( NULL, record_shape, &r );
	kcc_space_each_shape( space, NULL, &r );
	kcc_debug_draw_space( NULL, space, NULL, NULL );

	cpShape* extra[] = { plank, ball, rail, flat };
	for ( int i = 0; i < 4; ++i )
	{
		cpSpaceRemoveShape( space, extra[i] );
		cpShapeFree( extra[i] );
	}
	cpSpaceRemoveBody( space, turned );
	cpBodyFree( turned );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown( test_a_move_into_a_wall_draws_shape_path_contacts_and_labels, world_setup,
										 world_teardown ),
		cmocka_unit_test_setup_teardown( test_zone_events_are_labelled_where_they_happened, world_setup,
										 world_teardown ),
		cmocka_unit_test_setup_teardown( test_bad_input_is_safe_and_nothing_allocates, world_setup, world_teardown ),
		cmocka_unit_test_setup_teardown( test_space_shapes_in_world_coordinates, world_setup, world_teardown ),
	};
	return cmocka_run_group_tests_name( "debug_draw_move", tests, NULL, NULL );
}
