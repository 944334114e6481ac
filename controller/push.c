// SPDX-License-Identifier: MIT
// Pushing: kinematic bodies whose shapes are in pushable_categories are moved by the character (cast and slid by
// the controller, stopped by walls, pushing the next box of a row), and dynamic bodies receive the impulse of an
// inelastic contact with a character of def.mass.
#include "internal.h"
#include "../geometry/internal.h"

#include <float.h>

// Boxes in a row one push moves at most.
#define KCC_MAX_PUSH_CHAIN 8
// Casts of one pushed body: the first, and one slide along what stopped it.
#define KCC_PUSH_SLIDES 2

// Lowest and highest extent of a box along up.
static float kcc_bounds_along( kcc_aabb b, vec2s up, bool highest )
{
	float x = ( up.x >= 0.0f ) == highest ? b.max.x : b.min.x;
	float y = ( up.y >= 0.0f ) == highest ? b.max.y : b.min.y;
	return x * up.x + y * up.y;
}

// How far the body's candidates (the shapes of body among the candidates) can move along push, keeping the skin
// from every blocking shape that is not part of the body; pushes the pushable bodies in the way first.
static float kcc_push_room( kcc_controller* c, const cpBody* body, vec2s push, int depth, vec2s* hit_normal )
{
	float length = glms_vec2_norm( push );
	vec2s dir = glms_vec2_scale( push, 1.0f / length );
	float allowed = length;
	*hit_normal = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < c->candidate_count; ++i )
	{
		kcc_candidate* box = c->candidates + i;
		if ( box->sensor || kcc_world_shape_body( box ) != body )
		{
			continue;
		}
		kcc_candidate_ready( c, box );
		kcc_aabb start = box->bounds;
		kcc_aabb swept = kcc_aabb_inflate( kcc_aabb_union( start, kcc_aabb_offset( start, push ) ), KCC_CULL_MARGIN );
		kcc_world_cover( c, swept );
		bool grounded = c->def.mode == KCC_MODE_GROUNDED;
		float bottom = kcc_bounds_along( start, c->def.up, false );
		for ( int j = 0; j < c->candidate_count; ++j )
		{
			kcc_candidate* other = c->candidates + j;
			// One-way shapes block from above only: a push (sideways) passes them, as a character does.
			if ( other->blocks == false || kcc_aabb_overlaps_aabb( swept, other->bounds ) == false ||
				 kcc_world_shape_body( other ) == body )
			{
				continue;
			}
			kcc_candidate_ready( c, other );
			if ( other->one_way )
			{
				continue;
			}
			if ( grounded && kcc_bounds_along( other->bounds, c->def.up, true ) <= bottom + KCC_ROUNDING_DISTANCE )
			{
				continue; // the floor the box slides over (its tiles' corners are level with the box's bottom)
			}
			kcc_cast_output out = kcc_shape_cast_trusted( &box->core, push, &other->core, 0.0f );
			if ( out.hit == false || kcc_has_normal( out.normal ) == false )
			{
				continue; // no contact, or touching at the start with no normal: nothing blocks along it
			}
			float approach = -glms_vec2_dot( dir, out.normal );
			if ( approach <= 0.0f )
			{
				continue; // along or away from the surface
			}
			float room = kcc_maxf( out.fraction * length - kcc_skin_backoff( c->def.skin, approach ), 0.0f );
			const cpBody* next = kcc_world_kinematic_body( other );
			if ( other->pushable && next != NULL && depth + 1 < KCC_MAX_PUSH_CHAIN && room < length )
			{
				// The next box of a row: pushed on by what is left, then it blocks where it stopped.
				vec2s moved = kcc_push_body( c, next, glms_vec2_scale( dir, length - room ), depth + 1 );
				float further = glms_vec2_dot( moved, dir );
				room = kcc_minf( room + further, length );
			}
			if ( room < allowed )
			{
				allowed = room;
				*hit_normal = out.normal;
			}
		}
	}
	return allowed;
}

vec2s kcc_push_body( kcc_controller* c, const cpBody* body, vec2s push, int depth )
{
	vec2s moved = kcc_v2( 0.0f, 0.0f );
	vec2s rest = push;
	for ( int slide = 0; slide < KCC_PUSH_SLIDES; ++slide )
	{
		float length = glms_vec2_norm( rest );
		if ( length <= KCC_ROUNDING_DISTANCE )
		{
			break;
		}
		vec2s normal;
		float room = kcc_push_room( c, body, rest, depth, &normal );
		vec2s step = glms_vec2_scale( rest, room / length );
		if ( room > 0.0f )
		{
			kcc_world_move_body( c, body, step );
			moved = glms_vec2_add( moved, step );
		}
		if ( room >= length || kcc_has_normal( normal ) == false )
		{
			break;
		}
		// Slide along what stopped it; in GROUNDED mode never up or down.
		rest = kcc_clip_vector( glms_vec2_scale( rest, ( length - room ) / length ), normal );
		if ( c->def.mode == KCC_MODE_GROUNDED )
		{
			rest = kcc_lateral( rest, c->def.up );
		}
		if ( glms_vec2_dot( rest, push ) <= 0.0f )
		{
			break;
		}
	}
	return moved;
}

void kcc_push_dynamic( kcc_controller* c, vec2s velocity, const kcc_move_result* result )
{
	if ( c->def.mass <= 0.0f )
	{
		return;
	}
	for ( int i = 0; i < result->collision_count; ++i )
	{
		const kcc_collision* col = result->collisions + i;
		bool first = true; // one impulse per body and move
		for ( int k = 0; k < i; ++k )
		{
			first &= c->collision_bodies[k] != c->collision_bodies[i];
		}
		if ( first )
		{
			kcc_world_impulse( c, c->collision_bodies[i], velocity, col->point, col->normal );
		}
	}
}
