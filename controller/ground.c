// SPDX-License-Identifier: MIT
// Ground: the probe below the character after the slide (floor state, snapping, keeping the skin) and step
// climbing (up, forward, down onto walkable floor).
#include "internal.h"
// The geometry core's trusted entry points: the candidates and the character are valid by construction.
#include "../geometry/internal.h"

#include <float.h>

// Resting tolerance beyond the skin: a character this close to a floor stands on it.
static float kcc_rest_tolerance( const kcc_controller* c )
{
	return 0.5f * c->def.skin;
}

float kcc_snap_reach( const kcc_controller* c, float lateral_length )
{
	return c->def.snap_distance + lateral_length * c->tan_floor;
}

float kcc_probe_reach( const kcc_controller* c )
{
	return kcc_skin_backoff( c->def.skin, c->cos_floor ) + kcc_rest_tolerance( c );
}

// Distance to move along -up from the contact found by a downward sweep so that the gap along the floor normal
// is the skin. Negative when the character is closer than the skin.
static float kcc_settle_distance( const kcc_controller* c, const kcc_sweep* s )
{
	return s->distance - kcc_skin_backoff( c->def.skin, glms_vec2_dot( s->normal, c->def.up ) );
}

// The settle distance is exact for a flat surface. Against a corner or a round obstacle the gap along the new
// normal grows with the square of the distance moved back: one Newton step on the measured distance brings it back
// to the skin.
static float kcc_refine_settle( const kcc_controller* c, const kcc_sweep* s, vec2s p, float settle )
{
	float cosine = glms_vec2_dot( s->normal, c->def.up );
	if ( cosine >= KCC_PARALLEL_COSINE || s->candidate == NULL )
	{
		return settle;
	}
	kcc_shape at;
	kcc_character_at( c, glms_vec2_sub( p, glms_vec2_scale( c->def.up, settle ) ), &at );
	kcc_distance_output d = kcc_distance_trusted( &at, &s->candidate->core );
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
	kcc_sweep s = kcc_sweep_floor( c, p, glms_vec2_scale( up, -reach ) );
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

kcc_step_result kcc_try_step( kcc_controller* c, vec2s p, vec2s lateral )
{
	kcc_step_result result = { 0 };
	result.position = p;
	vec2s up = c->def.up;
	float min_move = kcc_maxf( c->def.min_move, KCC_ROUNDING_DISTANCE );

	// Up by at most step_height (less under a ceiling).
	kcc_sweep rise = kcc_sweep_character( c, p, glms_vec2_scale( up, c->def.step_height ) );
	float h = rise.travel;
	if ( h <= min_move )
	{
		return result;
	}
	vec2s p1 = glms_vec2_add( p, glms_vec2_scale( up, h ) );

	// Forward by the blocked lateral motion, and at least the character's rounding radius (plus the skin): a round
	// bottom pressed against a step's edge only lands on the step's top once its lowest point is past the edge;
	// landing short of it would meet the edge's corner (a wall-steep normal) and slide back down.
	float lateral_length = glms_vec2_norm( lateral );
	if ( lateral_length <= 0.0f )
	{
		return result;
	}
	float reach = kcc_maxf( lateral_length, c->step_forward );
	vec2s forward_motion = glms_vec2_scale( lateral, reach / lateral_length );
	kcc_sweep forward = kcc_sweep_character( c, p1, forward_motion );
	float f = forward.travel;
	if ( f <= min_move )
	{
		return result;
	}
	vec2s p2 = glms_vec2_add( p1, glms_vec2_scale( lateral, f / lateral_length ) );

	// Down onto walkable floor, no lower than where it started.
	float tolerance = kcc_rest_tolerance( c );
	float drop = h + kcc_skin_backoff( c->def.skin, c->cos_floor ) + tolerance;
	kcc_sweep down = kcc_sweep_floor( c, p2, glms_vec2_scale( up, -drop ) );
	if ( down.hit == false )
	{
		return result;
	}
	// The step's top may be at most step_height above the character's lowest point where it started (a rounded
	// character resting on the edge would otherwise gain its rounding on top of step_height).
	float top = glms_vec2_dot( down.point, up );
	float bottom = glms_vec2_dot( p, up ) + c->bottom_offset;
	if ( top - bottom > c->def.step_height + tolerance )
	{
		return result;
	}
	float settle = kcc_settle_distance( c, &down );
	if ( settle > down.travel + tolerance )
	{
		// A steep surface (a wall, a 60 degree top) stops the descent before the floor found below: the character
		// would hang on it, not stand on the step.
		return result;
	}
	settle = kcc_minf( settle > 0.0f ? settle : 0.0f, down.travel );
	vec2s p3 = glms_vec2_sub( p2, glms_vec2_scale( up, settle ) );
	if ( glms_vec2_dot( glms_vec2_sub( p3, p ), up ) <= tolerance )
	{
		// Not higher than before: this was no step (the blocking surface is something else).
		return result;
	}
	result.stepped = true;
	result.position = p3;
	result.normal = down.normal;
	result.floor = down.candidate;
	return result;
}
