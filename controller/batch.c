// SPDX-License-Identifier: MIT
// kcc_move_and_slide_batch: many characters of one space in one call. The batch reads the space's non-static shapes
// once into its snapshot (snapshot.c); each move then gathers from the static index and the snapshot instead of
// Chipmunk, moves its body without reindexing it, and the batch reindexes every body it moved at its end, in the
// order sequential calls would have. Results are those of kcc_controller_move_and_slide in array order.
#include "chipmunk_bridge.h"
#include "internal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

// Whether a shape's categories make it pushable for a character of pushable_categories (a shape in every category is
// a plain solid, never pushable).
static bool kcc_batch_pushable( cpShapeFilter f, cpBitmask pushable_categories )
{
	return f.categories != CP_ALL_CATEGORIES && ( f.categories & pushable_categories ) != 0;
}

static cpBB kcc_bb_inflate( cpBB bb, double m )
{
	return cpBBNew( bb.l - m, bb.b - m, bb.r + m, bb.t + m );
}

// How far the platform the character rode at its last move carries it in this move at most: the body's translation
// since then, and its turn times the character's distance from the body (0 when the body is gone).
static double kcc_batch_carry_bound( const kcc_controller* c, const kcc_snapshot* s )
{
	if ( c->platform == NULL || kcc_snapshot_body_index( s, c->platform ) < 0 )
	{
		return 0.0;
	}
	cpVect position;
	double angle;
	kcc_world_body_pose( c->platform, &position, &angle );
	double shift = cpvlength( cpvsub( position, c->platform_position ) );
	cpVect anchor = cpvadd( kcc_bridge_to_cpv( c->position ), kcc_bridge_to_cpv( c->carry_anchor ) );
	double arm = cpvlength( cpvsub( anchor, c->platform_position ) );
	double carry = shift + fabs( angle - c->platform_angle ) * arm;
	return isfinite( carry ) && carry <= (double)c->def.max_displacement ? carry : 0.0; // else not carried
}

// How far a move can take the character from where it stands, and so push what it pushes (a bound): its
// displacement (twice: the slide's parts), the carry of its platform and belt, the push-out.
static double kcc_batch_motion( const kcc_controller* c, const kcc_snapshot* s, vec2s delta, float dt,
								double pushed_platform )
{
	double size = (double)( c->local_bounds.max.x - c->local_bounds.min.x ) +
				  (double)( c->local_bounds.max.y - c->local_bounds.min.y );
	double depenetration = (double)c->def.max_depenetration_iterations * ( size + (double)c->def.skin );
	double carry = kcc_batch_carry_bound( c, s );
	if ( carry > 0.0 || c->platform != NULL )
	{
		carry += pushed_platform; // the platform may be a box pushed earlier in the batch
	}
	double belt = (double)glms_vec2_norm( c->belt_velocity ) * (double)dt;
	return 2.0 * (double)glms_vec2_norm( delta ) + carry + belt + depenetration;
}

// The influence box of a move: every query box of the move lies in it (asserted by the gather). The region of the
// move's one query where it may start (motion, probe, step, snap, skins), grown by the step and snap of a later part,
// the corner nudge and the region growths (the character's size).
static cpBB kcc_batch_influence( const kcc_controller* c, vec2s delta, double motion )
{
	kcc_aabb region = kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), delta );
	cpVect lo = kcc_bridge_world( c->position, region.min );
	cpVect hi = kcc_bridge_world( c->position, region.max );
	double size = (double)kcc_maxf( c->local_bounds.max.x - c->local_bounds.min.x,
									c->local_bounds.max.y - c->local_bounds.min.y );
	double grow = motion + 2.0 * (double)c->def.step_height + (double)c->step_forward +
				  (double)kcc_snap_reach( c, glms_vec2_norm( delta ) ) + (double)kcc_probe_reach( c ) +
				  (double)c->def.corner_correction + size + 4.0 * (double)c->def.skin + (double)KCC_QUERY_MARGIN;
	return kcc_bb_inflate( cpBBNew( lo.x, lo.y, hi.x, hi.y ), grow );
}

// Reads the space and sets every shape's grid box and every move's influence box. False when memory ran out.
static bool kcc_batch_prepare( kcc_snapshot* s, kcc_controller* const* controllers, int count, const vec2s* velocities,
							   float dt )
{
	cpSpace* space = controllers[0]->space;
	if ( kcc_snapshot_read( s, space, count ) == false )
	{
		return false;
	}
	// Boxes a push may move: by every pusher's motion, at most, in one batch.
	cpBitmask pushable = 0;
	double push_reach = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		const kcc_controller* c = controllers[i];
		if ( c->def.pushable_categories != 0 )
		{
			pushable |= c->def.pushable_categories;
			// A push moves a box along the motion left in the slide (at most the move's displacement; the parts
			// of a split move add up to it), a skin past where it touches.
			push_reach += 2.0 * (double)glms_vec2_norm( glms_vec2_scale( velocities[i], dt ) ) + (double)c->def.skin;
		}
	}
	for ( int i = 0; i < s->shape_count && pushable != 0; ++i )
	{
		kcc_snapshot_shape* sh = s->shapes + i;
		if ( cpBodyGetType( (cpBody*)s->bodies[sh->body].body ) == CP_BODY_TYPE_KINEMATIC &&
			 kcc_batch_pushable( cpShapeGetFilter( sh->shape ), pushable ) )
		{
			sh->grid = kcc_bb_inflate( sh->indexed, push_reach );
		}
	}
	// The characters: their shapes may be anywhere in their influence box.
	for ( int i = 0; i < count; ++i )
	{
		kcc_controller* c = controllers[i];
		vec2s delta = glms_vec2_scale( velocities[i], dt );
		c->influence = kcc_batch_influence( c, delta, kcc_batch_motion( c, s, delta, dt, push_reach ) );
		int b = kcc_snapshot_body_index( s, c->body );
		for ( int k = 0; b >= 0 && k < s->bodies[b].shape_count; ++k )
		{
			s->shapes[s->bodies[b].first_shape + k].grid = c->influence;
		}
	}
	// A pusher's queries follow the boxes it pushes (and the rows ahead of them, two of their sizes): its influence
	// box takes in each pushable box it may meet, grown so, as far as a chain of pushes goes.
	for ( int i = 0; i < count && pushable != 0; ++i )
	{
		kcc_controller* c = controllers[i];
		for ( int round = 0; round <= KCC_MAX_PUSHED_BODIES && c->def.pushable_categories != 0; ++round )
		{
			bool grew = false;
			for ( int k = 0; k < s->shape_count; ++k )
			{
				const kcc_snapshot_shape* sh = s->shapes + k;
				if ( cpBodyGetType( (cpBody*)s->bodies[sh->body].body ) != CP_BODY_TYPE_KINEMATIC ||
					 kcc_batch_pushable( cpShapeGetFilter( sh->shape ), c->def.pushable_categories ) == false ||
					 cpBBIntersects( c->influence, sh->grid ) == false )
				{
					continue;
				}
				double span = fmax( sh->indexed.r - sh->indexed.l, sh->indexed.t - sh->indexed.b );
				cpBB reach = kcc_bb_inflate( sh->grid, 2.0 * span + (double)KCC_QUERY_MARGIN );
				if ( cpBBContainsBB( c->influence, reach ) == false )
				{
					c->influence = cpBBMerge( c->influence, reach );
					grew = true;
				}
			}
			if ( grew == false )
			{
				break;
			}
		}
	}
	return kcc_snapshot_build_grid( s );
}

// The space's snapshot, made on the first batch (NULL when there is no static index or memory ran out: the batch then
// runs as sequential calls).
static kcc_snapshot* kcc_batch_snapshot( kcc_controller* c )
{
	if ( kcc_static_index_ready( c->static_index ) == false )
	{
		return NULL;
	}
	kcc_snapshot** kept = kcc_static_index_snapshot( c->static_index );
	if ( *kept == NULL )
	{
		*kept = kcc_alloc( sizeof( kcc_snapshot ) );
		if ( *kept != NULL )
		{
			memset( *kept, 0, sizeof( kcc_snapshot ) );
		}
	}
	return *kept;
}

// One move of the batch.
static void kcc_batch_move( kcc_controller* const* controllers, int i, const vec2s* velocities, float dt,
							vec2s* out_velocities, kcc_move_result* out_results, kcc_snapshot* s )
{
	kcc_controller* c = controllers[i];
	c->batch = s;
	c->batch_mover = i;
	c->batch_seq = 0;
	kcc_status status = kcc_move_and_slide( c, velocities[i], dt, out_velocities != NULL ? out_velocities + i : NULL,
											out_results != NULL ? out_results + i : NULL );
	KCC_ASSERT( status == KCC_OK, "kcc_move_and_slide_batch: a move checked by the batch failed" );
	(void)status;
	c->batch = NULL;
}

kcc_status kcc_move_and_slide_batch( kcc_controller* const* controllers, int count, const vec2s* velocities,
									 float dt, vec2s* out_velocities, kcc_move_result* out_results,
									 const kcc_task_system* tasks )
{
	(void)tasks;
	if ( count < 0 )
	{
		KCC_ASSERT( false, "kcc_move_and_slide_batch: count is negative" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( count == 0 )
	{
		return KCC_OK;
	}
	if ( controllers == NULL || velocities == NULL )
	{
		KCC_ASSERT( false, "kcc_move_and_slide_batch: controllers or velocities is NULL" );
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_is_valid_float( dt ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( dt < 0.0f )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	// Every input checked before anything moves.
	for ( int i = 0; i < count; ++i )
	{
		if ( KCC_USABLE( controllers[i], "kcc_move_and_slide_batch" ) == false )
		{
			return KCC_ERROR_NULL_ARGUMENT;
		}
		if ( controllers[i]->space != controllers[0]->space )
		{
			KCC_ASSERT( false, "kcc_move_and_slide_batch: the characters are in different spaces" );
			return KCC_ERROR_INVALID_ARGUMENT;
		}
		if ( kcc_is_valid_vec2( velocities[i] ) == false )
		{
			return KCC_ERROR_NOT_FINITE;
		}
		vec2s delta = glms_vec2_scale( velocities[i], dt );
		if ( kcc_is_valid_vec2( delta ) == false )
		{
			return KCC_ERROR_TOO_LARGE;
		}
		kcc_status status = kcc_move_validate( controllers[i], delta );
		if ( status != KCC_OK )
		{
			return status;
		}
	}
	kcc_controller* first = controllers[0];
	kcc_status status = KCC_SPACE_ACQUIRE( first, "kcc_move_and_slide_batch" );
	if ( status != KCC_OK )
	{
		return status;
	}
	// A character twice in the batch (its second move starts where the first ends, unknown here) or a paused frame:
	// sequential moves on Chipmunk's queries.
	bool repeated = false;
	for ( int i = 0; i < count; ++i )
	{
		controllers[i]->batch_mover = -1;
	}
	for ( int i = 0; i < count; ++i )
	{
		repeated |= controllers[i]->batch_mover >= 0;
		controllers[i]->batch_mover = i;
	}
	kcc_snapshot* s = repeated || dt == 0.0f ? NULL : kcc_batch_snapshot( first );
	if ( s != NULL && kcc_batch_prepare( s, controllers, count, velocities, dt ) )
	{
		for ( int i = 0; i < count; ++i )
		{
			kcc_batch_move( controllers, i, velocities, dt, out_velocities, out_results, s );
		}
		kcc_snapshot_reindex_moved( s, count );
		kcc_space_release( first );
		return KCC_OK;
	}
	kcc_space_release( first );
	for ( int i = 0; i < count; ++i )
	{
		status = kcc_move_and_slide( controllers[i], velocities[i], dt,
									 out_velocities != NULL ? out_velocities + i : NULL,
									 out_results != NULL ? out_results + i : NULL );
		KCC_ASSERT( status == KCC_OK, "kcc_move_and_slide_batch: a move checked by the batch failed" );
	}
	return status;
}
