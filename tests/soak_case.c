// SPDX-License-Identifier: MIT
// The soak's reproductions (soak_world.h): one move as plain data that runs on a fresh space, shrinks and prints.
#include "soak_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

soak_case* soak_case_new( void )
{
	soak_case* k = calloc( 1, sizeof( soak_case ) );
	if ( k == NULL )
	{
		abort();
	}
	k->def = kcc_default_controller_def();
	k->spec.maker = 1;
	k->spec.p[1] = -0.3f, k->spec.p[3] = 0.3f, k->spec.radius = 0.3f; // the default capsule
	k->floor_normal = k->def.up;
	k->dt = 1.0f / 60.0f;
	k->note = "";
	return k;
}

void soak_case_add( soak_case* k, soak_shape_kind kind, double radius, int count, const double* xy,
					cpBitmask categories, cpBitmask mask )
{
	if ( k->shape_count >= SOAK_CASE_MAX_SHAPES || count > SOAK_CASE_MAX_VERTICES || count < 1 )
	{
		abort(); // a broken reproduction
	}
	soak_case_shape* s = &k->shapes[k->shape_count++];
	memset( s, 0, sizeof( *s ) );
	s->kind = kind;
	s->radius = radius;
	s->count = count;
	for ( int i = 0; i < count; ++i )
	{
		s->v[i][0] = xy[2 * i];
		s->v[i][1] = xy[2 * i + 1];
	}
	s->categories = categories;
	s->mask = mask;
}

void soak_case_capture( const soak_world* w, int index, const kcc_controller_state* before, soak_case_call call,
						vec2s delta, float dt, soak_case* out )
{
	const soak_character* ch = &w->characters[index];
	out->shape_count = 0;
	out->spec = ch->spec;
	out->def = ch->def;
	out->position = before->position;
	out->flags = before->flags;
	out->floor_normal = before->floor_normal;
	out->support_count = before->support_count;
	for ( int i = 0; i < before->support_count && i < 4; ++i )
	{
		out->supports[i] = before->supports[i];
	}
	out->call = call;
	out->delta = delta;
	out->dt = dt;
	out->note = ch->riding ? "the move started on a kinematic body: its carry is not part of the reproduction"
				: ch->drop_shape != NULL ? "dropping through a one-way shape: not part of the reproduction"
										 : "";
	out->expected_position = kcc_controller_get_position( ch->c );
	// Every shape the move can reach: its length, the shape, the snap, the step, with room to spare.
	double reach = hypot( delta.x, delta.y ) * ( call == SOAK_CALL_MOVE_AND_SLIDE ? dt : 1.0f );
	double smallest, largest = soak_shape_size( &ch->def.shape, &smallest );
	reach += 2.0 * largest + ch->def.snap_distance + ch->def.step_height + 1.0;
	soak_core me;
	soak_core_from_character( &ch->def.shape, before->position, &me );
	double lo_x, hi_x, lo_y, hi_y;
	soak_core_extent( &me, 1.0, 0.0, &lo_x, &hi_x );
	soak_core_extent( &me, 0.0, 1.0, &lo_y, &hi_y );
	for ( int i = 0; i < w->shape_count && out->shape_count < SOAK_CASE_MAX_SHAPES; ++i )
	{
		const soak_shape* s = &w->shapes[i];
		if ( soak_blocks( w, ch, ch->shape_index, i ) == false )
		{
			continue;
		}
		const soak_cache* cache = soak_cache_of( w, i );
		if ( cache->hi_x < lo_x - reach || cache->lo_x > hi_x + reach || cache->hi_y < lo_y - reach ||
			 cache->lo_y > hi_y + reach )
		{
			continue;
		}
		// Chipmunk's own vertex order, in world coordinates: a raw polygon of these is the same shape.
		const cpBody* body = cpShapeGetBody( s->shape );
		double xy[2 * SOAK_CASE_MAX_VERTICES];
		int n = 0;
		double radius = 0.0;
		if ( s->kind == SOAK_CIRCLE )
		{
			cpVect c = cpBodyLocalToWorld( body, cpCircleShapeGetOffset( s->shape ) );
			xy[0] = c.x, xy[1] = c.y, n = 1;
			radius = cpCircleShapeGetRadius( s->shape );
		}
		else if ( s->kind == SOAK_SEGMENT )
		{
			cpVect a = cpBodyLocalToWorld( body, cpSegmentShapeGetA( s->shape ) );
			cpVect b = cpBodyLocalToWorld( body, cpSegmentShapeGetB( s->shape ) );
			xy[0] = a.x, xy[1] = a.y, xy[2] = b.x, xy[3] = b.y, n = 2;
			radius = cpSegmentShapeGetRadius( s->shape );
		}
		else
		{
			n = cpPolyShapeGetCount( s->shape );
			if ( n > SOAK_CASE_MAX_VERTICES )
			{
				continue;
			}
			for ( int v = 0; v < n; ++v )
			{
				cpVect p = cpBodyLocalToWorld( body, cpPolyShapeGetVert( s->shape, v ) );
				xy[2 * v] = p.x, xy[2 * v + 1] = p.y;
			}
			radius = cpPolyShapeGetRadius( s->shape );
		}
		cpShapeFilter f = cpShapeGetFilter( s->shape );
		soak_case_add( out, s->kind, radius, n, xy, f.categories, f.mask );
	}
}

soak_case_outcome soak_case_run( const soak_case* k )
{
	soak_case_outcome o;
	memset( &o, 0, sizeof( o ) );
	o.shape_index = -1;
	soak_world* w = soak_world_new( 100.0 );
	cpBody* body = soak_static( w );
	for ( int i = 0; i < k->shape_count; ++i )
	{
		const soak_case_shape* s = &k->shapes[i];
		cpShape* shape;
		if ( s->kind == SOAK_CIRCLE )
		{
			shape = cpCircleShapeNew( body, s->radius, cpv( s->v[0][0], s->v[0][1] ) );
		}
		else if ( s->kind == SOAK_SEGMENT )
		{
			shape = cpSegmentShapeNew( body, cpv( s->v[0][0], s->v[0][1] ), cpv( s->v[1][0], s->v[1][1] ), s->radius );
		}
		else
		{
			cpVect v[SOAK_CASE_MAX_VERTICES];
			for ( int j = 0; j < s->count; ++j )
			{
				v[j] = cpv( s->v[j][0], s->v[j][1] );
			}
			shape = cpPolyShapeNewRaw( body, s->count, v, s->radius );
		}
		cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, s->categories, s->mask ) );
		cpSpaceAddShape( w->space, shape );
		soak_register( w, shape, s->kind, 0, -1 );
	}
	soak_character* ch = &w->characters[0];
	memset( ch, 0, sizeof( *ch ) );
	ch->shape_index = -1;
	ch->spec = k->spec;
	ch->def = k->def;
	ch->def.shape = soak_make_character_shape( &k->spec );
	ch->def.position = k->position;
	ch->height = soak_character_height( &ch->def.shape, ch->def.up );
	ch->c = kcc_controller_create( w->space, &ch->def );
	if ( ch->c == NULL )
	{
		o.status = KCC_ERROR_INVALID_ARGUMENT;
		soak_world_destroy( w );
		return o;
	}
	w->character_count = 1;
	ch->shape_index = soak_register( w, kcc_controller_get_shape( ch->c ), soak_kind_of_character( &ch->def.shape ),
									 SOAK_ROLE_CHARACTER, 0 );
	kcc_controller_state state = kcc_controller_get_state( ch->c );
	state.position = k->position;
	state.flags = k->flags;
	state.floor_normal = k->floor_normal;
	state.support_count = k->support_count;
	for ( int i = 0; i < k->support_count && i < 4; ++i )
	{
		state.supports[i] = k->supports[i];
	}
	kcc_controller_set_state( ch->c, &state );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	if ( k->call == SOAK_CALL_MOVE )
	{
		o.status = kcc_controller_move( ch->c, k->delta, &o.result );
	}
	else
	{
		o.status = kcc_controller_move_and_slide( ch->c, k->delta, k->dt, &velocity, &o.result );
	}
	soak_check check = soak_check_character( w, 0, &k->position, &o.result, o.result.flags );
	o.heights = check.heights;
	o.shape_index = check.shape_index;
	bool finite = kcc_is_valid_vec2( o.result.position ) && kcc_is_valid_vec2( velocity ) &&
				  kcc_is_valid_vec2( kcc_controller_get_position( ch->c ) );
	o.fails = check.counted || finite == false;
	soak_world_destroy( w );
	return o;
}

// Drops every shape the failure does not need, last to first.
static void soak_case_drop_shapes( soak_case* k )
{
	for ( int i = k->shape_count - 1; i >= 0; --i )
	{
		soak_case_shape removed = k->shapes[i];
		memmove( &k->shapes[i], &k->shapes[i + 1], sizeof( soak_case_shape ) * (size_t)( k->shape_count - 1 - i ) );
		k->shape_count -= 1;
		if ( soak_case_run( k ).fails == false )
		{
			memmove( &k->shapes[i + 1], &k->shapes[i], sizeof( soak_case_shape ) * (size_t)( k->shape_count - i ) );
			k->shapes[i] = removed;
			k->shape_count += 1;
		}
	}
}

bool soak_case_shrink( soak_case* k )
{
	if ( soak_case_run( k ).fails == false )
	{
		return false;
	}
	soak_case_drop_shapes( k );
	// A failure that needs the candidate buffer to overflow needs fewer shapes with the smallest buffer.
	if ( k->def.max_candidates > 16 )
	{
		int saved = k->def.max_candidates;
		k->def.max_candidates = 16;
		if ( soak_case_run( k ).fails )
		{
			soak_case_drop_shapes( k );
		}
		else
		{
			k->def.max_candidates = saved;
		}
	}
	// Def fields back to their defaults, one at a time, while the case still fails.
	const kcc_controller_def d = kcc_default_controller_def();
#define SOAK_TRY_DEFAULT( field )                                                                                   \
	do                                                                                                             \
	{                                                                                                              \
		kcc_controller_def saved = k->def;                                                                         \
		k->def.field = d.field;                                                                                    \
		if ( memcmp( &saved, &k->def, sizeof( saved ) ) != 0 && soak_case_run( k ).fails == false )               \
		{                                                                                                          \
			k->def = saved;                                                                                        \
		}                                                                                                          \
	}                                                                                                              \
	while ( 0 )
	SOAK_TRY_DEFAULT( min_move );
	SOAK_TRY_DEFAULT( max_slides );
	SOAK_TRY_DEFAULT( max_floor_angle );
	SOAK_TRY_DEFAULT( snap_distance );
	SOAK_TRY_DEFAULT( step_height );
	SOAK_TRY_DEFAULT( stop_on_slope );
	SOAK_TRY_DEFAULT( constant_speed_on_slopes );
	SOAK_TRY_DEFAULT( slide_on_ceiling );
	SOAK_TRY_DEFAULT( mode );
	SOAK_TRY_DEFAULT( filter );
	SOAK_TRY_DEFAULT( one_way_categories );
	SOAK_TRY_DEFAULT( max_displacement );
	SOAK_TRY_DEFAULT( max_depenetration_iterations );
	SOAK_TRY_DEFAULT( max_candidates );
	SOAK_TRY_DEFAULT( platform_on_leave );
	SOAK_TRY_DEFAULT( corner_correction );
	SOAK_TRY_DEFAULT( step_min_width );
	SOAK_TRY_DEFAULT( skin );
#undef SOAK_TRY_DEFAULT
	return true;
}

static void soak_print_float( FILE* f, float x )
{
	fprintf( f, "%af", (double)x );
}

static void soak_print_vec2( FILE* f, vec2s v )
{
	fprintf( f, "kcc_v2( " );
	soak_print_float( f, v.x );
	fprintf( f, ", " );
	soak_print_float( f, v.y );
	fprintf( f, " )" );
}

void soak_case_print( FILE* f, const soak_case* k )
{
	static const char* kinds[3] = { "SOAK_CIRCLE", "SOAK_SEGMENT", "SOAK_POLY" };
	fprintf( f, "\tsoak_case* k = soak_case_new();\n" );
	for ( int i = 0; i < k->shape_count; ++i )
	{
		const soak_case_shape* s = &k->shapes[i];
		fprintf( f, "\tsoak_case_add( k, %s, %a, %d,\n\t\t\t\t   (const double[]){", kinds[s->kind], s->radius, s->count );
		for ( int v = 0; v < s->count; ++v )
		{
			// two points a line
			fprintf( f, "%s%a, %a", v == 0 ? " " : v % 2 == 0 ? ",\n\t\t\t\t\t\t\t\t\t " : ", ", s->v[v][0], s->v[v][1] );
		}
		fprintf( f, " },\n\t\t\t\t   0x%llxu, 0x%llxu );\n", (unsigned long long)s->categories, (unsigned long long)s->mask );
	}
	const soak_shape_spec* sp = &k->spec;
	fprintf( f, "\tk->spec.maker = %d; // %s\n", sp->maker,
			 (const char*[]){ "circle", "capsule", "box", "aabb", "obb", "polygon" }[sp->maker < 0 || sp->maker > 5 ? 5 : sp->maker] );
	if ( sp->maker == 5 )
	{
		fprintf( f, "\tk->spec.count = %d;\n", sp->count );
		for ( int i = 0; i < sp->count; ++i )
		{
			fprintf( f, "\tk->spec.points[%d] = ", i );
			soak_print_vec2( f, sp->points[i] );
			fprintf( f, ";\n" );
		}
	}
	else
	{
		for ( int i = 0; i < 4; ++i )
		{
			fprintf( f, "\tk->spec.p[%d] = ", i );
			soak_print_float( f, sp->p[i] );
			fprintf( f, ";\n" );
		}
	}
	fprintf( f, "\tk->spec.radius = " );
	soak_print_float( f, sp->radius );
	fprintf( f, ";\n\tk->spec.angle = " );
	soak_print_float( f, sp->angle );
	fprintf( f, ";\n" );
	const kcc_controller_def d = kcc_default_controller_def();
	const kcc_controller_def* def = &k->def;
#define SOAK_PRINT_FLOAT_FIELD( field )                                                                             \
	if ( def->field != d.field )                                                                                   \
	{                                                                                                              \
		fprintf( f, "\tk->def." #field " = " );                                                                    \
		soak_print_float( f, def->field );                                                                         \
		fprintf( f, ";\n" );                                                                                       \
	}
#define SOAK_PRINT_INT_FIELD( field )                                                                               \
	if ( def->field != d.field )                                                                                   \
	{                                                                                                              \
		fprintf( f, "\tk->def." #field " = %d;\n", (int)def->field );                                            \
	}
	if ( def->up.x != d.up.x || def->up.y != d.up.y )
	{
		fprintf( f, "\tk->def.up = " );
		soak_print_vec2( f, def->up );
		fprintf( f, ";\n" );
	}
	SOAK_PRINT_FLOAT_FIELD( skin )
	SOAK_PRINT_FLOAT_FIELD( min_move )
	SOAK_PRINT_INT_FIELD( max_slides )
	SOAK_PRINT_FLOAT_FIELD( max_floor_angle )
	SOAK_PRINT_FLOAT_FIELD( snap_distance )
	SOAK_PRINT_FLOAT_FIELD( step_height )
	SOAK_PRINT_INT_FIELD( stop_on_slope )
	SOAK_PRINT_INT_FIELD( constant_speed_on_slopes )
	SOAK_PRINT_INT_FIELD( slide_on_ceiling )
	SOAK_PRINT_INT_FIELD( mode )
	SOAK_PRINT_FLOAT_FIELD( max_displacement )
	SOAK_PRINT_FLOAT_FIELD( max_coordinate )
	SOAK_PRINT_INT_FIELD( max_depenetration_iterations )
	SOAK_PRINT_INT_FIELD( max_candidates )
	SOAK_PRINT_INT_FIELD( platform_on_leave )
	SOAK_PRINT_FLOAT_FIELD( corner_correction )
	SOAK_PRINT_FLOAT_FIELD( step_min_width )
#undef SOAK_PRINT_FLOAT_FIELD
#undef SOAK_PRINT_INT_FIELD
	if ( def->filter.categories != d.filter.categories || def->filter.mask != d.filter.mask )
	{
		fprintf( f, "\tk->def.filter = cpShapeFilterNew( CP_NO_GROUP, 0x%llxu, 0x%llxu );\n",
				 (unsigned long long)def->filter.categories, (unsigned long long)def->filter.mask );
	}
	if ( def->one_way_categories != d.one_way_categories )
	{
		fprintf( f, "\tk->def.one_way_categories = 0x%llxu;\n", (unsigned long long)def->one_way_categories );
	}
	fprintf( f, "\tk->position = " );
	soak_print_vec2( f, k->position );
	fprintf( f, ";\n\tk->flags = 0x%xu;\n\tk->floor_normal = ", (unsigned)k->flags );
	soak_print_vec2( f, k->floor_normal );
	fprintf( f, ";\n" );
	if ( k->support_count > 0 )
	{
		fprintf( f, "\tk->support_count = %d;\n", k->support_count );
		for ( int i = 0; i < k->support_count && i < 4; ++i )
		{
			fprintf( f, "\tk->supports[%d] = ", i );
			soak_print_vec2( f, k->supports[i] );
			fprintf( f, ";\n" );
		}
	}
	fprintf( f, "\tk->call = %s;\n\tk->delta = ", k->call == SOAK_CALL_MOVE ? "SOAK_CALL_MOVE" : "SOAK_CALL_MOVE_AND_SLIDE" );
	soak_print_vec2( f, k->delta );
	fprintf( f, ";\n" );
	if ( k->call == SOAK_CALL_MOVE_AND_SLIDE )
	{
		fprintf( f, "\tk->dt = " );
		soak_print_float( f, k->dt );
		fprintf( f, ";\n" );
	}
	fprintf( f, "\t// the soak saw: ends at (%.9g, %.9g), %.4g of its height inside a solid%s%s\n",
			 (double)k->expected_position.x, (double)k->expected_position.y, k->expected_heights,
			 k->note[0] != '\0' ? "; " : "", k->note );
}

