// SPDX-License-Identifier: MIT
// test_move: "would the character hit something moving by delta?" The move's own sweep against the move's own
// candidates (Godot's test_move, Box2D's b2World_CastMover), with nothing moved, carried, pushed or reported.
#include "chipmunk_bridge.h"
#include "internal.h"

// Like a move (kcc_move_part), a cast whose query meets more shapes than the buffer holds is done in halves, each
// with its own query, at most this many times deep.
#define KCC_TEST_MOVE_SPLIT_DEPTH 6

// The first blocking contact casting from local position from along delta; travel is from the start of the whole
// cast (base: how far from lies along it).
static bool kcc_test_move_part( kcc_controller* c, vec2s from, vec2s delta, float base, int depth, kcc_sweep* hit,
								float* travel )
{
	kcc_aabb start = kcc_aabb_offset( c->local_bounds, from );
	kcc_aabb swept = kcc_aabb_union( start, kcc_aabb_offset( start, delta ) );
	kcc_world_gather_solids( c, kcc_aabb_inflate( swept, 2.0f * c->def.skin + KCC_QUERY_MARGIN ) );
	float length = glms_vec2_norm( delta );
	if ( c->move->candidate_overflow && depth < KCC_TEST_MOVE_SPLIT_DEPTH && 0.5f * length >= c->def.min_move )
	{
		vec2s half = glms_vec2_scale( delta, 0.5f );
		if ( kcc_test_move_part( c, from, half, base, depth + 1, hit, travel ) )
		{
			return true;
		}
		return kcc_test_move_part( c, glms_vec2_add( from, half ), half, base + 0.5f * length, depth + 1, hit, travel );
	}
	kcc_sweep s = kcc_sweep_character( c, from, delta );
	if ( s.hit == false )
	{
		return false;
	}
	*hit = s;
	*travel = base + s.travel;
	return true;
}

bool kcc_controller_test_move( kcc_controller* c, vec2s delta, kcc_collision* hit )
{
	if ( hit != NULL )
	{
		*hit = ( kcc_collision ){ 0 };
	}
	if ( KCC_USABLE( c, "kcc_controller_test_move" ) == false )
	{
		return false;
	}
	if ( kcc_is_valid_vec2( delta ) == false )
	{
		KCC_ASSERT( false, "kcc_controller_test_move: delta is not finite" );
		return false;
	}
	if ( fabsf( delta.x ) > c->def.max_displacement || fabsf( delta.y ) > c->def.max_displacement ||
		 glms_vec2_norm( delta ) > c->def.max_displacement ||
		 kcc_validate_position( c, kcc_bridge_offset( c->position, delta ) ) != KCC_OK )
	{
		KCC_ASSERT( false, "kcc_controller_test_move: delta is longer than max_displacement or ends beyond "
						   "max_coordinate" );
		return false;
	}
	if ( glms_vec2_norm( delta ) <= 0.0f || KCC_SPACE_ACQUIRE( c, "kcc_controller_test_move" ) != KCC_OK )
	{
		return false;
	}
	// Only the per-move scratch (the local frame and the candidates) is written: the next move gathers its own.
	c->move->origin = c->position;
	kcc_sweep s;
	float travel = 0.0f;
	bool found = kcc_test_move_part( c, kcc_v2( 0.0f, 0.0f ), delta, 0.0f, 0, &s, &travel );
	if ( found && hit != NULL )
	{
		uint32_t kind = kcc_classify_normal( s.normal, c->def.up, c->cos_floor, c->def.mode );
		bool crate = s.candidate->pushable && kind != KCC_KIND_FLOOR &&
					 kcc_world_kinematic_body( s.candidate ) != NULL;
		hit->point = kcc_bridge_offset( c->move->origin, s.point );
		hit->normal = s.normal;
		hit->travel = travel;
		hit->shape = s.candidate->shape;
		hit->flags = kind | ( crate ? (uint32_t)KCC_PUSHED : 0u );
	}
	kcc_space_release( c );
	return found;
}
