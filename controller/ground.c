// SPDX-License-Identifier: MIT
// Ground: the probe below the character after the slide (floor state, snapping, keeping the skin) and step
// climbing (up, forward, down onto walkable floor).
#include "internal.h"
// The geometry core's trusted entry points: the candidates and the character are valid by construction.
#include "../geometry/internal.h"

#include <float.h>

// Distance to move along -up from the contact found by a downward sweep so that the gap along the floor normal
// is the skin. Negative when the character is closer than the skin.
static float kcc_settle_distance( const kcc_controller* c, const kcc_sweep* s )
{
	return s->distance - kcc_skin_backoff( c->def.skin, glms_vec2_dot( s->normal, c->def.up ) );
}

// The settle distance is exact for a flat surface. Against a corner or a round obstacle the gap along the new
// normal grows with the square of the distance moved back: one Newton step on the measured distance brings it back
// to the skin.
static float kcc_refine_settle( kcc_controller* c, const kcc_sweep* s, vec2s p, float settle )
{
	float cosine = glms_vec2_dot( s->normal, c->def.up );
	if ( cosine >= KCC_PARALLEL_COSINE || s->candidate == NULL )
	{
		return settle;
	}
	kcc_shape at;
	kcc_character_at( c, glms_vec2_sub( p, glms_vec2_scale( c->def.up, settle ) ), &at );
	// The sweep may have cast the floor without converting it (kcc_local_box).
	kcc_distance_output d = kcc_distance_trusted( &at, &kcc_candidate_ready( c, s->candidate )->core );
	if ( d.distance <= 0.0f )
	{
		return settle;
	}
	float refined = settle + kcc_skin_backoff( d.distance - c->def.skin, cosine );
	// Never past the contact itself.
	return kcc_minf( kcc_maxf( refined, 0.0f ), s->distance );
}

kcc_ground_result kcc_ground_probe( kcc_controller* c, vec2s p, float snap_reach, bool allow_snap )
{
	kcc_ground_result g = { 0 };
	g.position = p;
	g.normal = c->def.up;
	vec2s up = c->def.up;
	float tolerance = kcc_rest_tolerance( c );
	float reach = kcc_probe_reach( c );
	if ( allow_snap )
	{
		reach += snap_reach;
	}
	// The first walkable contact below: a steep edge the character leans on (a step's corner) does not hide the
	// floor it stands on; the snap never goes past any contact.
	kcc_sweep s = kcc_sweep_floor( c, p, glms_vec2_scale( up, -reach ), false ); // the point is not read
	if ( s.hit == false )
	{
		return g;
	}
	float settle = kcc_settle_distance( c, &s );
	if ( allow_snap == false && settle > tolerance )
	{
		// A floor below, but farther than resting contact and snapping is not allowed (falling onto it).
		return g;
	}
	g.on_floor = true;
	g.normal = s.normal;
	g.floor = s.candidate;
	if ( settle > 0.0f )
	{
		settle = kcc_minf( kcc_refine_settle( c, &s, p, settle ), s.travel );
		g.position = glms_vec2_sub( p, glms_vec2_scale( up, settle ) );
		g.snapped = settle > KCC_ROUNDING_DISTANCE && allow_snap;
	}
	else if ( settle < -KCC_ROUNDING_DISTANCE )
	{
		// Closer than the skin (a short fall ended inside it): rise back to the skin unless something is above.
		vec2s rise = glms_vec2_scale( up, -settle );
		kcc_sweep above = kcc_sweep_character( c, p, rise );
		float h = above.hit ? above.travel : -settle;
		g.position = glms_vec2_add( p, glms_vec2_scale( up, h ) );
	}
	return g;
}

// next_riser: the climb may end against the next riser of a flight, above a tread too narrow to stand on, when the
// same climb goes up that riser from there.
static kcc_step_result kcc_step( kcc_controller* c, vec2s p, vec2s lateral, const vec2s* edge_normal, bool next_riser )
{
	kcc_step_result result = { 0 };
	result.position = p;
	vec2s up = c->def.up;
	float min_move = kcc_maxf( c->def.min_move, KCC_ROUNDING_DISTANCE );
	float lateral_length = glms_vec2_norm( lateral );
	if ( lateral_length <= 0.0f )
	{
		return result;
	}
	vec2s dir = glms_vec2_scale( lateral, 1.0f / lateral_length );

	// Up by at most step_height (less under a ceiling).
	kcc_sweep rise = kcc_sweep_character( c, p, glms_vec2_scale( up, c->def.step_height ) );
	float h = rise.travel;
	if ( h <= min_move )
	{
		return result;
	}
	vec2s p1 = glms_vec2_muladds( up, h, p );

	// Room ahead at that height: the blocked motion, and step_min_width of free tread (Rapier's min_width).
	float room = kcc_maxf( lateral_length, c->def.step_min_width );
	// The tread is looked for where a round bottom is past the edge: the rounding radius plus the skin ahead.
	float ahead = kcc_maxf( room, c->step_forward );
	kcc_sweep forward = kcc_sweep_character( c, p1, glms_vec2_scale( dir, ahead ) );
	if ( forward.travel + KCC_ROUNDING_DISTANCE < room )
	{
		return result;
	}

	// The tread: walkable floor below that point, higher than the character's lowest point and at most step_height
	// above it (a round bottom on a flat floor gains nothing from its rounding), or above the edge it rests on.
	float tolerance = kcc_rest_tolerance( c );
	float drop = h + kcc_probe_reach( c );
	vec2s probe = glms_vec2_muladds( dir, kcc_minf( forward.travel, ahead ), p1 );
	kcc_sweep tread = kcc_sweep_floor( c, probe, glms_vec2_scale( up, -drop ), true );
	if ( tread.hit == false )
	{
		return result;
	}
	if ( edge_normal != NULL && glms_vec2_dot( tread.normal, *edge_normal ) >= KCC_PARALLEL_COSINE )
	{
		return result; // the walkable contact goes on ahead as it is (a ramp): no edge to climb over
	}
	float top = glms_vec2_dot( tread.point, up );
	float bottom = glms_vec2_dot( p, up ) + c->bottom_offset;
	if ( top - bottom > c->def.step_height + tolerance )
	{
		// A riser is measured from what the character rests on: a round bottom on a tread's edge (or against it, the
		// tread too narrow to hold it) hangs below that tread, and the riser ahead rises from the tread.
		kcc_sweep support = kcc_sweep_character( c, p, glms_vec2_scale( up, -kcc_probe_reach( c ) ) );
		if ( support.hit )
		{
			bottom = kcc_maxf( bottom, glms_vec2_dot( support.point, up ) );
		}
	}
	if ( top - bottom > c->def.step_height + tolerance || top - bottom <= tolerance )
	{
		return result;
	}
	// A steep surface (a wall, a 60 degree top) stops the descent before the floor found below: the character would
	// hang on it, not stand on the step. Unless it is the next riser of a flight (checked below): a round bottom finds
	// no room on a narrow tread between two risers, and rests against the next one instead.
	bool against_riser = kcc_settle_distance( c, &tread ) > tread.travel + tolerance;
	if ( against_riser && next_riser == false )
	{
		return result;
	}

	// The climb replaces the blocked motion: forward by exactly that much at the raised height, then down onto the
	// tread, or onto its edge for a round bottom not yet past it (it rolls over the edge in the next moves).
	vec2s p2 = glms_vec2_muladds( dir, lateral_length, p1 );
	kcc_sweep down = kcc_sweep_character( c, p2, glms_vec2_scale( up, -drop ) );
	vec2s p3 = glms_vec2_muladds( up, -down.travel, p2 );
	if ( down.hit && kcc_within_floor_angle( down.normal, up, c->cos_floor ) )
	{
		float settle = kcc_minf( kcc_maxf( kcc_settle_distance( c, &down ), 0.0f ), down.travel );
		p3 = glms_vec2_muladds( up, -settle, p2 );
	}
	if ( glms_vec2_dot( glms_vec2_sub( p3, p ), up ) <= tolerance )
	{
		// Not higher than before: this was no step (the blocking surface is something else).
		return result;
	}
	if ( against_riser && kcc_step( c, p3, lateral, NULL, false ).stepped == false )
	{
		// What stopped the descent is not a riser climbed the same way from there (a wall, a steep top).
		return result;
	}
	result.stepped = true;
	result.position = p3;
	result.normal = tread.normal;
	result.floor = tread.candidate;
	return result;
}

kcc_step_result kcc_try_step( kcc_controller* c, vec2s p, vec2s lateral, const vec2s* edge_normal )
{
	return kcc_step( c, p, lateral, edge_normal, true );
}
