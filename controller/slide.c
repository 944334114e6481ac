// SPDX-License-Identifier: MIT
// The slide response: what remains of a move after it meets a surface. Pure vector math, no Chipmunk.
#include "internal.h"

#include <float.h>

// v - s n
static vec2s kcc_mul_sub( vec2s v, float s, vec2s n )
{
	return glms_vec2_muladds( n, -s, v );
}

vec2s kcc_clip_vector( vec2s v, vec2s n )
{
	float d = glms_vec2_dot( v, n );
	if ( d >= 0.0f )
	{
		return v;
	}
	vec2s r = kcc_mul_sub( v, d, n );
	// Rounding can leave a residue pointing into the plane; never return one (the next cast would stop on it):
	// nudge out by a few ulps of the input's length.
	float nudge = ( fabsf( v.x ) + fabsf( v.y ) ) * FLT_EPSILON;
	for ( int i = 0; i < 4 && glms_vec2_dot( r, n ) < 0.0f; ++i )
	{
		r = kcc_mul_sub( r, -nudge, n );
		nudge *= 2.0f;
	}
	return r;
}

static bool kcc_violates( vec2s v, vec2s n, float scale )
{
	return glms_vec2_dot( v, n ) < -KCC_PLANE_TOLERANCE * scale;
}

// GROUNDED walls: clipping against a steep surface must not turn lateral motion into climbing (else characters
// walk up 60 degree slopes, or climb them in the air by pushing into them while rising: each frame's push became
// upward speed, and a jump held against a 72 degree slope climbed it at 14 u/s). Going up, v slides up along the wall
// by its own upward part and no more. Otherwise, when the clip would lift it, the wall acts as a vertical one (its
// normal with the up part removed); the result is then kept out of the real plane, which can only slide it down.
static vec2s kcc_clip_wall( vec2s up, vec2s v, vec2s n )
{
	vec2s r = kcc_clip_vector( v, n );
	float rising = glms_vec2_dot( v, up );
	if ( glms_vec2_dot( r, up ) <= kcc_maxf( rising, 0.0f ) )
	{
		return r;
	}
	if ( rising > 0.0f )
	{
		// Along the wall, upward (the clip lifted v, so the wall faces up and is not vertical: its tangent has a
		// positive up part), as high as v rose: the nearest motion that neither enters the wall nor rises more than
		// v did, shorter than v.
		vec2s tangent = kcc_v2( -n.y, n.x );
		if ( glms_vec2_dot( tangent, up ) < 0.0f )
		{
			tangent = glms_vec2_negate( tangent );
		}
		return kcc_clip_vector( glms_vec2_scale( tangent, rising / glms_vec2_dot( tangent, up ) ), n );
	}
	vec2s flat = kcc_mul_sub( n, glms_vec2_dot( n, up ), up );
	float len = glms_vec2_norm( flat );
	if ( len <= 0.0f )
	{
		return kcc_mul_sub( v, glms_vec2_dot( v, up ), up );
	}
	flat = glms_vec2_scale( flat, 1.0f / len );
	r = kcc_clip_vector( v, flat );
	r = kcc_clip_vector( r, n );
	float gained = glms_vec2_dot( r, up );
	if ( gained > 0.0f )
	{
		r = kcc_mul_sub( r, gained, up );
	}
	return r;
}

// What moves along a walkable floor, GROUNDED: with stop_on_slope, only the lateral part of v, along the floor (the
// floor takes the rest: gravity, and the leftover upward speed of walking up a slope), rescaled to the lateral
// length with constant_speed_on_slopes; otherwise v without its part into the floor.
vec2s kcc_floor_response( const kcc_slide_params* p, vec2s v, vec2s n )
{
	if ( p->stop_on_slope == false )
	{
		return kcc_clip_vector( v, n );
	}
	vec2s lateral = kcc_lateral( v, p->up );
	vec2s r = kcc_clip_vector( lateral, n );
	if ( p->constant_speed_on_slopes )
	{
		float len = glms_vec2_norm( r );
		if ( len > 0.0f )
		{
			r = glms_vec2_scale( r, glms_vec2_norm( lateral ) / len );
		}
	}
	return r;
}

// The response to one surface, ignoring earlier planes.
static vec2s kcc_respond( const kcc_slide_params* p, vec2s remaining, vec2s n, uint32_t kind )
{
	vec2s up = p->up;
	float vertical = glms_vec2_dot( remaining, up );
	vec2s lateral = kcc_lateral( remaining, up );

	if ( p->grounded && kind == KCC_KIND_FLOOR )
	{
		if ( p->stop_on_slope && ( vertical <= 0.0f || p->leaving == false ) )
		{
			// Standing on a slope never creeps, and walking down it never goes faster than commanded.
			return kcc_floor_response( p, remaining, n );
		}
		if ( p->constant_speed_on_slopes )
		{
			vec2s along = kcc_clip_vector( lateral, n );
			float len = glms_vec2_norm( along );
			if ( len > 0.0f )
			{
				along = glms_vec2_scale( along, glms_vec2_norm( lateral ) / len );
			}
			vec2s vertical_part = kcc_clip_vector( glms_vec2_scale( up, vertical ), n );
			return glms_vec2_add( along, vertical_part );
		}
		return kcc_clip_vector( remaining, n );
	}

	if ( p->grounded && kind == KCC_KIND_CEILING && p->slide_on_ceiling == false && vertical > 0.0f )
	{
		// Godot's slide_on_ceiling = false: the body stops at the ceiling and keeps nothing of the tangent.
		vec2s zero = { { 0.0f, 0.0f } };
		return zero;
	}

	if ( p->grounded && kind == KCC_KIND_WALL )
	{
		return kcc_clip_wall( up, remaining, n );
	}
	return kcc_clip_vector( remaining, n );
}

vec2s kcc_slide_remaining( const kcc_slide_params* params, const vec2s* planes, int plane_count, vec2s delta,
						   vec2s remaining, vec2s normal, uint32_t kind )
{
	vec2s zero = { { 0.0f, 0.0f } };
	vec2s r = kcc_respond( params, remaining, normal, kind );
	float scale = glms_vec2_norm( remaining );

	// Earlier planes of this move: in 2D two non-parallel planes that both constrain the motion leave no
	// direction along both (their crease is a point), so the motion stops there. Nearly parallel planes (tile
	// seams) are one plane: clip against it too.
	for ( int i = 0; i < plane_count; ++i )
	{
		vec2s m = planes[i];
		if ( kcc_violates( r, m, scale ) == false )
		{
			continue;
		}
		if ( glms_vec2_dot( m, normal ) >= KCC_PARALLEL_COSINE )
		{
			r = kcc_clip_vector( r, m );
			continue;
		}
		return zero;
	}
	// A clip against a later plane may have pushed the motion back into an earlier one.
	for ( int i = 0; i < plane_count; ++i )
	{
		if ( kcc_violates( r, planes[i], scale ) )
		{
			return zero;
		}
	}
	if ( kcc_violates( r, normal, scale ) )
	{
		return zero;
	}

	// Quake rule: never move against the input. In GROUNDED mode, going down while the input goes down (gravity)
	// is never against it in the air: a falling character pushing into a steep slope slides down it instead of
	// sticking to it. On a floor the floor takes gravity: a steep slope at the foot of a walk does not push back.
	bool falling = params->grounded && params->on_floor == false && glms_vec2_dot( delta, params->up ) < 0.0f &&
				   glms_vec2_dot( r, params->up ) < 0.0f;
	if ( glms_vec2_dot( r, delta ) <= 0.0f && falling == false )
	{
		return zero;
	}
	return r;
}

// The point of the convex cone { v : dot( v, n_i ) >= 0 for every i } nearest to v (2D: v itself, a point on one
// of the cone's boundary lines, or the apex 0).
static vec2s kcc_project_on_cone( vec2s v, const vec2s* normals, int count )
{
	bool inside = true;
	for ( int i = 0; i < count; ++i )
	{
		inside &= glms_vec2_dot( v, normals[i] ) >= 0.0f;
	}
	if ( inside )
	{
		return v; // the common case: nothing to remove
	}
	float scale = glms_vec2_norm( v );
	float slack = KCC_PLANE_TOLERANCE * scale;
	vec2s zero = { { 0.0f, 0.0f } };
	vec2s best = zero;
	float best_distance = glms_vec2_norm2( v );
	// Candidates: v, then v projected on each boundary line.
	for ( int k = -1; k < count; ++k )
	{
		vec2s candidate = v;
		if ( k >= 0 )
		{
			candidate = kcc_mul_sub( v, glms_vec2_dot( v, normals[k] ), normals[k] );
		}
		bool feasible = true;
		for ( int i = 0; i < count && feasible; ++i )
		{
			feasible = glms_vec2_dot( candidate, normals[i] ) >= -slack;
		}
		float distance = glms_vec2_distance2( v, candidate );
		if ( feasible && distance < best_distance )
		{
			best = candidate;
			best_distance = distance;
		}
	}
	// Keep the result out of every plane exactly (rounding of the projections).
	for ( int i = 0; i < count; ++i )
	{
		best = kcc_clip_vector( best, normals[i] );
	}
	return best;
}

// Whether a floor is among the planes met.
static bool kcc_floor_met( const kcc_plane_list* planes )
{
	bool met = false;
	for ( int i = 0; i < planes->count; ++i )
	{
		met |= planes->kinds[i] == KCC_KIND_FLOOR;
	}
	return met;
}

// Every surface met: the velocity must not point into any of them, all at once (a crease stops it).
static vec2s kcc_clip_planes( const kcc_slide_params* params, vec2s v, const kcc_plane_list* planes, bool on_floor,
							  vec2s floor_normal )
{
	const vec2s* plane_normals = planes->normals;
	const uint32_t* kinds = planes->kinds;
	int count = planes->count;
	vec2s up = params->up;
	vec2s normals[KCC_MAX_MOVE_PLANES * 2 + 1];
	int n = 0;
	bool rising = glms_vec2_dot( v, up ) > 0.0f;
	for ( int i = 0; i < count && params->grounded; ++i )
	{
		// A push into a steep wall adds no upward speed, and one going down slides down along it: the projection
		// below would take the cone's apex, zero, for the latter (a character held against a 60 degree slope in the
		// air hung on it, gravity never building up).
		if ( kinds[i] == KCC_KIND_WALL )
		{
			v = kcc_clip_wall( up, v, plane_normals[i] );
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		vec2s normal = plane_normals[i];
		if ( params->grounded && glms_vec2_dot( normal, up ) >= KCC_PARALLEL_COSINE )
		{
			normal = up;
		}
		normals[n++] = normal;
		if ( params->grounded && kinds[i] == KCC_KIND_WALL && rising == false )
		{
			// A steep wall never turns a push into climbing: it blocks as the vertical wall of its lateral normal.
			vec2s flat = kcc_lateral( normal, up );
			float length = glms_vec2_norm( flat );
			if ( length > 0.0f )
			{
				normals[n++] = glms_vec2_scale( flat, 1.0f / length );
			}
		}
	}
	if ( on_floor )
	{
		normals[n++] = floor_normal;
	}
	return kcc_project_on_cone( v, normals, n );
}

vec2s kcc_clip_velocity( const kcc_slide_params* params, vec2s velocity, const kcc_plane_list* planes, bool on_floor,
						 vec2s floor_normal )
{
	const vec2s* plane_normals = planes->normals;
	const uint32_t* kinds = planes->kinds;
	int count = planes->count;
	vec2s v = velocity;
	vec2s up = params->up;
	if ( params->grounded && on_floor && params->stop_on_slope )
	{
		// On a floor after the move the fall ends and the lateral speed is kept whole (Godot's velocity.slide(up)),
		// lifted along the uphill floors met so that it points into none of them: clipping it instead would shrink it
		// by cos^2 of the slope every frame, and a game that keeps its momentum would stall on any slope and on every
		// step's edge. Over a crest, the speed up the slope does not launch the character.
		v = kcc_lateral( v, up );
		float lift = 0.0f;
		for ( int i = -1; i < count; ++i )
		{
			vec2s n = i < 0 ? floor_normal : plane_normals[i];
			float along_up = glms_vec2_dot( up, n );
			bool floor = i < 0 || kinds[i] == KCC_KIND_FLOOR;
			if ( floor && along_up < KCC_PARALLEL_COSINE && along_up > 0.0f )
			{
				lift = kcc_maxf( lift, -glms_vec2_dot( v, n ) / along_up );
			}
		}
		v = glms_vec2_muladds( up, lift, v );
	}
	else if ( params->grounded && on_floor )
	{
		// Without stop_on_slope the floor takes only the part into it: gravity slides the character down slopes.
		v = kcc_floor_response( params, v, glms_vec2_dot( floor_normal, up ) >= KCC_PARALLEL_COSINE ? up : floor_normal );
	}
	else if ( params->grounded && params->stop_on_slope && kcc_floor_met( planes ) && glms_vec2_dot( v, up ) < 0.0f )
	{
		// A floor met on the way ends the fall: the whole downward part goes.
		v = kcc_mul_sub( v, glms_vec2_dot( v, up ), up );
	}
	if ( params->grounded && glms_vec2_dot( floor_normal, up ) >= KCC_PARALLEL_COSINE )
	{
		floor_normal = up; // a flat floor met at a tile's corner: its normal is off up by rounding only
	}
	if ( count == 0 )
	{
		// Most moves meet no surface: the floor stood on is the only plane.
		return on_floor ? kcc_project_on_cone( v, &floor_normal, 1 ) : v;
	}
	return kcc_clip_planes( params, v, planes, on_floor, floor_normal );
}
