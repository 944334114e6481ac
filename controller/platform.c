// SPDX-License-Identifier: MIT
// Moving platforms: a character standing on a kinematic body is carried by the body's motion since its last move
// (translation and rotation), before its own displacement is cast; one standing on a conveyor belt (a floor with a
// Chipmunk surface velocity) by that velocity along the floor over the move_and_slide's dt.
#include "chipmunk_bridge.h"
#include "internal.h"
#include "../geometry/internal.h"

void kcc_platform_remember_moving( kcc_controller* c, vec2s p, const kcc_candidate* floor )
{
	// A conveyor belt: the floor's surface velocity, its part along the floor (Chipmunk's friction uses that part).
	c->belt_velocity = kcc_lateral( kcc_world_surface_velocity( floor ), c->floor_normal );
	const cpBody* body = kcc_world_kinematic_body( floor );
	if ( body == NULL )
	{
		return;
	}
	c->platform = body;
	kcc_world_body_pose( body, &c->platform_position, &c->platform_angle );
	// The point carried rigidly: the centre of the character's rounding where it touches the platform (a circle's
	// centre, a capsule's lower end point, a rounded box's corner). Its contact with a turning platform then stays
	// at the same place on the platform.
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_distance_output d = kcc_distance_trusted( &character, &floor->core );
	c->carry_anchor = glms_vec2_scale( c->def.up, c->bottom_offset + c->rounding );
	if ( d.distance > 0.0f )
	{
		c->carry_anchor = glms_vec2_sub( glms_vec2_muladds( d.normal, -c->rounding, d.point_a ), p );
	}
}

// Casts the character from its position along carry against what blocks it, the shapes of body ignored
// (the body carrying it), and moves it where the cast stops, tracking the zones on the way. False, and nothing
// moved, when that end is out of range; *reached is the end in the local frame.
static bool kcc_carry_cast( kcc_controller* c, vec2s carry, const cpBody* body, kcc_move_accumulator* acc,
							vec2s* reached )
{
	kcc_world_gather( c, kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), carry ) );
	if ( c->move->candidate_overflow )
	{
		acc->flags |= KCC_CANDIDATES_TRUNCATED;
	}
	for ( int i = 0; i < c->move->candidate_count && body != NULL; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( kcc_world_shape_body( cand ) == body )
		{
			cand->blocks = false; // the character moves with its platform; the next query resets this
		}
	}
	kcc_sweep s = kcc_sweep_character( c, kcc_v2( 0.0f, 0.0f ), carry );
	vec2s p = s.hit ? glms_vec2_scale( carry, s.travel / glms_vec2_norm( carry ) ) : carry;
	vec2s moved = kcc_bridge_offset( c->move->origin, p );
	if ( kcc_validate_position( c, moved ) != KCC_OK )
	{
		return false;
	}
	c->position = moved;
	const vec2s path[2] = { kcc_v2( 0.0f, 0.0f ), p };
	if ( kcc_zones_around( c ) )
	{
		kcc_zones_track( c, path, 2, acc->travel, acc );
	}
	kcc_result_path_add( acc->path, moved );
	acc->travel += glms_vec2_norm( p );
	*reached = p;
	return true;
}

// Find the body among the shapes around the character (by pointer value only: a body the game removed is simply
// not found) and carry the character by the body's motion since then (rotation about the body's position). The
// carry is a cast that ignores the carrying body's own shapes: a wall stops it.
void kcc_platform_carry( kcc_controller* c, kcc_move_accumulator* acc )
{
	const cpBody* platform = c->platform;
	c->platform = NULL;
	c->move->origin = c->position;
	// Usually the platform moved less than the character's size: look for it around the character. Otherwise (a
	// fast platform) look for the pointer value among the space's bodies, which are all alive.
	kcc_aabb around = kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 0.0f ) );
	kcc_world_gather( c, kcc_aabb_inflate( around, kcc_character_size( c ) ) );
	const cpBody* found = NULL;
	for ( int i = 0; i < c->move->candidate_count && found == NULL; ++i )
	{
		const cpBody* body = kcc_world_shape_body( c->move->candidates + i );
		if ( body == platform )
		{
			found = body;
		}
	}
	if ( found == NULL )
	{
		found = kcc_world_find_body( c, platform );
	}
	if ( found == NULL )
	{
		return; // removed by the game: the character is simply no longer carried
	}
	cpVect position;
	double angle;
	kcc_world_body_pose( found, &position, &angle );
	double turn = angle - c->platform_angle;
	double cs = turn == 0.0 ? 1.0 : cos( turn ), sn = turn == 0.0 ? 0.0 : sin( turn );
	double fx = (double)c->position.x + (double)c->carry_anchor.x;
	double fy = (double)c->position.y + (double)c->carry_anchor.y;
	double rx = fx - c->platform_position.x;
	double ry = fy - c->platform_position.y;
	vec2s carry = { { kcc_bridge_to_float( position.x + cs * rx - sn * ry - fx ),
					  kcc_bridge_to_float( position.y + sn * rx + cs * ry - fy ) } };
	// The platform's own motion where the character touched it (its velocity at the contact, once divided by dt): the
	// contact is the rounding's radius from the carried point, against the floor normal.
	double gx = fx - (double)c->floor_normal.x * (double)c->rounding;
	double gy = fy - (double)c->floor_normal.y * (double)c->rounding;
	double qx = gx - c->platform_position.x, qy = gy - c->platform_position.y;
	vec2s contact_motion = { { kcc_bridge_to_float( position.x + cs * qx - sn * qy - gx ),
							   kcc_bridge_to_float( position.y + sn * qx + cs * qy - gy ) } };
	float length = glms_vec2_norm( carry );
	if ( kcc_is_valid_vec2( carry ) == false || length <= 0.0f || length > c->def.max_displacement )
	{
		return; // no motion, or a teleported platform: not carried
	}
	vec2s p;
	if ( kcc_carry_cast( c, carry, found, acc, &p ) )
	{
		c->carry_body = found;
		c->carry_missed = glms_vec2_sub( carry, p );
		c->carry = contact_motion;
	}
}

void kcc_platform_belt( kcc_controller* c, float dt, kcc_move_accumulator* acc )
{
	vec2s carry = glms_vec2_scale( c->belt_velocity, dt );
	float length = glms_vec2_norm( carry );
	if ( kcc_is_valid_vec2( carry ) == false || length <= 0.0f || length > c->def.max_displacement )
	{
		return;
	}
	// Along the floor, so the floor itself never blocks it (a seam between belt tiles neither: the skin rule).
	c->move->origin = c->position;
	vec2s p;
	kcc_carry_cast( c, carry, NULL, acc, &p );
}

vec2s kcc_platform_body_velocity( const kcc_controller* c, const cpBody* carried_by )
{
	if ( c->platform == carried_by )
	{
		// Its motion between the last two moves, as the carry measured it at the contact.
		return c->last_dt > 0.0f ? glms_vec2_scale( c->carry, 1.0f / c->last_dt ) : kcc_v2( 0.0f, 0.0f );
	}
	// Just landed on it: no motion measured yet, so Chipmunk's own velocity at the contact (zero for a platform moved
	// by setting its position; found by this move's query, so still alive).
	vec2s touch = glms_vec2_muladds( c->floor_normal, -c->rounding, c->carry_anchor );
	cpVect contact = kcc_bridge_world( c->position, touch );
	return kcc_world_body_velocity( c->platform, contact );
}
