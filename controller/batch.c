// SPDX-License-Identifier: MIT
// kcc_move_and_slide_batch: many characters of one space in one call. The batch reads the space's non-static shapes
// once into its snapshot (snapshot.c); each move then gathers from the static index and the snapshot instead of
// Chipmunk, moves its body without reindexing it, and the batch reindexes every body it moved at its end, in the
// order sequential calls would have. Results are those of kcc_controller_move_and_slide in array order.
#include "chipmunk_bridge.h"
#include "internal.h"
#include "static_index.h"

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#if ( defined( __x86_64__ ) || defined( __i386__ ) ) && ( defined( __GNUC__ ) || defined( __clang__ ) ) && \
	!defined( KCC_NO_SIMD )
#include <cpuid.h>
#define KCC_X86_PREFETCHW 1
#endif

// Whether a shape's categories make it pushable for a character of pushable_categories (a shape in every category is
// a plain solid, never pushable).
static bool kcc_batch_pushable( cpShapeFilter f, cpBitmask pushable_categories )
{
	return f.categories != CP_ALL_CATEGORIES && ( f.categories & pushable_categories ) != 0;
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
	// A push-out round moves the character by its depth in a shape and a skin; the depth is at most the character's
	// narrower side (moving it that far along x, or along y, clears any shape).
	double narrow = (double)kcc_minf( c->local_bounds.max.x - c->local_bounds.min.x,
									  c->local_bounds.max.y - c->local_bounds.min.y );
	double depenetration = (double)c->def.max_depenetration_iterations * ( narrow + (double)c->def.skin );
	double carry = kcc_batch_carry_bound( c, s );
	if ( carry > 0.0 || c->platform != NULL )
	{
		carry += pushed_platform; // the platform may be a box pushed earlier in the batch
	}
	double belt = (double)glms_vec2_norm( c->belt_velocity ) * (double)dt;
	return 2.0 * (double)glms_vec2_norm( delta ) + carry + belt + depenetration;
}

// How far from where it stands a move may take the character: its motion (kcc_batch_motion), two steps (up, and
// forward as far as a step looks for its tread), the snap and the probe below, the corner nudge, the skin.
static double kcc_batch_reach( const kcc_controller* c, vec2s delta, double motion )
{
	double tread = c->def.step_height > 0.0f ? (double)kcc_maxf( c->def.step_min_width, c->step_forward ) : 0.0;
	return motion + 2.0 * ( (double)c->def.step_height + tread ) +
		   (double)kcc_snap_reach( c, glms_vec2_norm( delta ) ) + (double)kcc_probe_reach( c ) +
		   (double)c->def.corner_correction + 2.0 * (double)c->def.skin;
}

// Every place the character's shape can be during its move: its box, grown by its reach.
static cpBB kcc_batch_shape_box( const kcc_controller* c, double reach )
{
	cpVect lo = kcc_bridge_world( c->position, c->local_bounds.min );
	cpVect hi = kcc_bridge_world( c->position, c->local_bounds.max );
	return kcc_bb_inflate( cpBBNew( lo.x, lo.y, hi.x, hi.y ), reach );
}

// The influence box of a move: every query box of the move lies in it (asserted by the gather). The region of the
// move's one query where it may start (motion, probe, step, snap, skins), grown by its reach and the region growths
// (the character's size).
static cpBB kcc_batch_influence( const kcc_controller* c, vec2s delta, double reach )
{
	kcc_aabb region = kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), delta );
	cpVect lo = kcc_bridge_world( c->position, region.min );
	cpVect hi = kcc_bridge_world( c->position, region.max );
	double grow = reach + (double)kcc_character_size( c ) + 2.0 * (double)c->def.skin + (double)KCC_QUERY_MARGIN;
	return kcc_bb_inflate( cpBBNew( lo.x, lo.y, hi.x, hi.y ), grow );
}

// Whether a snapshot shape may be pushed by a character of pushable_categories: a pushable box on a kinematic body.
static bool kcc_batch_crate( const kcc_snapshot* s, const kcc_snapshot_shape* sh, cpBitmask pushable_categories )
{
	return cpBodyGetType( (cpBody*)s->bodies[sh->body].body ) == CP_BODY_TYPE_KINEMATIC &&
		   kcc_batch_pushable( sh->filter, pushable_categories );
}

// Whether the character rides a body with a pushable box (pushed by others, the box carries it farther).
static bool kcc_batch_rides_crate( const kcc_controller* c, const kcc_snapshot* s, cpBitmask pushable )
{
	int b = c->platform != NULL ? kcc_snapshot_body_index( s, c->platform ) : -1;
	for ( int k = 0; b >= 0 && k < s->bodies[b].shape_count; ++k )
	{
		if ( kcc_batch_crate( s, s->shapes + s->bodies[b].first_shape + k, pushable ) )
		{
			return true;
		}
	}
	return false;
}

// A pusher's queries follow the boxes it pushes (and the rows ahead of them, two of their sizes): its influence box
// takes in each box it may meet, grown so, as far as a chain of pushes goes.
static void kcc_batch_extend( kcc_controller* c, const kcc_snapshot* s )
{
	c->influence = c->batch_base;
	for ( int round = 0; round <= KCC_MAX_PUSHED_BODIES; ++round )
	{
		bool grew = false;
		for ( int k = 0; k < s->crate_count; ++k )
		{
			const kcc_snapshot_shape* sh = s->shapes + s->crates[k];
			if ( kcc_batch_pushable( sh->filter, c->def.pushable_categories ) == false ||
				 cpBBIntersects( c->influence, sh->grid ) == false )
			{
				continue;
			}
			double w = sh->indexed.r - sh->indexed.l, h = sh->indexed.t - sh->indexed.b;
			double span = w > h ? w : h;
			cpBB reach = kcc_bb_inflate( sh->grid, 2.0 * span + (double)KCC_QUERY_MARGIN );
			if ( cpBBContainsBB( c->influence, reach ) == false )
			{
				c->influence = cpBBMerge( c->influence, reach );
				grew = true;
			}
		}
		if ( grew == false )
		{
			return;
		}
	}
}

// Rounds of the fixed point of the boxes' reach before the batch takes every pusher's motion for every box.
#define KCC_BATCH_REACH_ROUNDS 8

// Each round of that fixed point tests every pusher against every box, twice. Past this many tests per move in the
// batch it costs more than the moves gain from running in parallel: the batch moves in array order instead.
#define KCC_BATCH_REACH_PAIRS 32

// Finding the waves walks the influence box of every move that may read a shape another moves (kcc_snapshot_walks) in
// the grid. In a crowd packed into those boxes (characters and crates within reach of each other) it would cost more
// than the moves, which then depend on each other anyway: the batch moves them in array order on the calling thread
// instead (the same results).
#define KCC_BATCH_WAVE_ENTRIES 256

static bool kcc_batch_worth_waves( const kcc_snapshot* s, kcc_controller* const* controllers, int count, int walkers )
{
	if ( walkers == 0 )
	{
		return true; // no move walks
	}
	int64_t entries = 0;
	for ( int i = 0; i < count; ++i )
	{
		entries += controllers[i]->batch_walks ? kcc_snapshot_wave_work( s, controllers[i] ) : 0;
	}
	return entries <= (int64_t)KCC_BATCH_WAVE_ENTRIES * count;
}

// Whether the fixed point below can settle within its budget: at least a round that grows the boxes and one that finds
// them settled (always, without crates). Known before anything else of the waves is worked out.
static bool kcc_batch_reach_affordable( const kcc_snapshot* s, int count, int pushers )
{
	int64_t round_tests = 2 * (int64_t)pushers * s->crate_count;
	return 2 * round_tests <= (int64_t)KCC_BATCH_REACH_PAIRS * count;
}

// Waves need every place a pushed box can reach in its grid box: a box moves at most by the pushes of the characters
// that may reach it. A fixed point (a box's reach grows its grid box, which more pushers may reach), or every pusher's
// push for every box when it takes too many rounds. False when it would take more than KCC_BATCH_REACH_PAIRS tests
// per move (the boxes' grid boxes are then left unfinished). Called only when kcc_batch_reach_affordable.
static bool kcc_batch_crate_reach( kcc_snapshot* s, kcc_controller* const* controllers, int count, int pushers,
								   double push_total )
{
	int64_t round_tests = 2 * (int64_t)pushers * s->crate_count;
	int64_t budget = (int64_t)KCC_BATCH_REACH_PAIRS * count;
	for ( int round = 0; round <= KCC_BATCH_REACH_ROUNDS; ++round )
	{
		budget -= round_tests;
		if ( budget < 0 )
		{
			return false;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( controllers[i]->def.pushable_categories != 0 )
			{
				kcc_batch_extend( controllers[i], s );
			}
		}
		if ( round == KCC_BATCH_REACH_ROUNDS )
		{
			return true; // the boxes were grown by every pusher's push: every extension above holds
		}
		bool changed = false;
		for ( int k = 0; k < s->crate_count; ++k )
		{
			kcc_snapshot_shape* sh = s->shapes + s->crates[k];
			double reach = 0.0;
			for ( int i = 0; i < count; ++i )
			{
				const kcc_controller* c = controllers[i];
				if ( c->batch_push > 0.0 && kcc_batch_pushable( sh->filter, c->def.pushable_categories ) &&
					 cpBBIntersects( c->influence, sh->grid ) )
				{
					reach += c->batch_push;
				}
			}
			if ( round + 1 == KCC_BATCH_REACH_ROUNDS )
			{
				reach = push_total;
			}
			cpBB grid = kcc_bb_inflate( sh->indexed, reach );
			if ( memcmp( &grid, &sh->grid, sizeof( grid ) ) != 0 )
			{
				sh->grid = grid;
				changed = true;
			}
		}
		if ( changed == false )
		{
			return true;
		}
	}
	return true;
}

// The grid boxes of array order: each shape where it begins, a character's grown by its displacement (where its move
// most often ends). A shape that leaves its grid box during the batch is read from the snapshot's loose list from then
// on (no other move runs meanwhile).
static void kcc_batch_array_boxes( kcc_snapshot* s, kcc_controller* const* controllers, int count,
								   const vec2s* velocities, float dt )
{
	for ( int k = 0; k < s->crate_count; ++k )
	{
		s->shapes[s->crates[k]].grid = s->shapes[s->crates[k]].indexed;
	}
	for ( int i = 0; i < count; ++i )
	{
		const kcc_controller* c = controllers[i];
		double margin = (double)glms_vec2_norm( glms_vec2_scale( velocities[i], dt ) ) + (double)c->def.skin;
		for ( int k = 0; c->batch_body >= 0 && k < s->bodies[c->batch_body].shape_count; ++k )
		{
			kcc_snapshot_shape* sh = s->shapes + s->bodies[c->batch_body].first_shape + k;
			sh->grid = kcc_bb_inflate( sh->indexed, margin );
		}
	}
}

typedef struct kcc_batch_reach_run
{
	kcc_controller* const* controllers;
	const vec2s* velocities;
	float dt;
	kcc_snapshot* s;
	cpBitmask pushable;
	double push_total;
	atomic_int walkers; ///< moves that walk (kcc_snapshot_walks), counted by the tasks
} kcc_batch_reach_run;

// The influence box of each character in [start, end), and its shapes' grid boxes (for waves).
static void kcc_batch_reach_task( int start, int end, int worker, void* context )
{
	(void)worker;
	kcc_batch_reach_run* run = context;
	kcc_snapshot* s = run->s;
	int walkers = 0;
	for ( int i = start; i < end; ++i )
	{
		kcc_controller* c = run->controllers[i];
		c->batch_walks = kcc_snapshot_walks( s, c );
		walkers += c->batch_walks ? 1 : 0;
		// A move that reads no shape another moves, and pushes none, depends on no other: where its queries go
		// matters to no wave (its influence box is the whole plane). Where its shapes go matters only to the moves
		// that may read them.
		bool bounded = c->batch_walks || c->def.pushable_categories != 0;
		const kcc_snapshot_body* body = c->batch_body >= 0 ? s->bodies + c->batch_body : NULL;
		bool read = false;
		for ( int k = 0; body != NULL && k < body->shape_count; ++k )
		{
			read |= kcc_snapshot_readable( s, s->shapes + body->first_shape + k );
		}
		c->batch_base = cpBBNew( -INFINITY, -INFINITY, INFINITY, INFINITY );
		c->influence = c->batch_base;
		if ( bounded == false && read == false )
		{
			continue;
		}
		vec2s delta = glms_vec2_scale( run->velocities[i], run->dt );
		double ridden = kcc_batch_rides_crate( c, s, run->pushable ) ? run->push_total : 0.0;
		double reach = kcc_batch_reach( c, delta, kcc_batch_motion( c, s, delta, run->dt, ridden ) );
		if ( bounded )
		{
			c->batch_base = kcc_batch_influence( c, delta, reach );
			c->influence = c->batch_base;
		}
		for ( int k = 0; body != NULL && k < body->shape_count; ++k )
		{
			s->shapes[body->first_shape + k].grid = kcc_batch_shape_box( c, reach );
		}
	}
	if ( walkers > 0 )
	{
		atomic_fetch_add_explicit( &run->walkers, walkers, memory_order_relaxed ); // finish orders it before the reads
	}
}

// One move context per worker, each with room for the candidates of every controller of the space. False when
// memory ran out.
static bool kcc_batch_contexts( kcc_snapshot* s, int workers, int capacity )
{
	if ( workers > s->context_count )
	{
		kcc_move_context* contexts = kcc_alloc( (size_t)workers * sizeof( *contexts ) );
		kcc_batch_listing* listings = kcc_alloc( (size_t)workers * sizeof( *listings ) );
		if ( contexts == NULL || listings == NULL )
		{
			kcc_free( contexts );
			kcc_free( listings );
			return false;
		}
		memset( contexts, 0, (size_t)workers * sizeof( *contexts ) );
		if ( s->context_count > 0 )
		{
			memcpy( contexts, s->contexts, (size_t)s->context_count * sizeof( *contexts ) );
		}
		kcc_free( s->contexts );
		kcc_free( s->listings );
		s->contexts = contexts;
		s->listings = listings;
		s->context_count = workers;
	}
	for ( int i = 0; i < s->context_count; ++i )
	{
		s->contexts[i].moved_unpending = false;
		if ( i < workers && kcc_move_context_reserve( s->contexts + i, capacity ) == false )
		{
			return false;
		}
	}
	return true;
}

// Runs fcn over [0, items) on the workers of tasks, in ranges of at least 64 items, or here when tasks is NULL.
static void kcc_batch_run_task( const kcc_task_system* tasks, kcc_task_fcn* fcn, int items, void* context )
{
	if ( tasks == NULL )
	{
		fcn( 0, items, 0, context );
		return;
	}
	void* handle = tasks->enqueue( fcn, items, 64, context, tasks->user );
	if ( handle != NULL )
	{
		tasks->finish( handle, tasks->user );
	}
}

// The checks of one move's input that need no other move: its velocity and displacement.
static kcc_status kcc_batch_check( const kcc_controller* c, vec2s velocity, float dt )
{
	if ( kcc_is_valid_vec2( velocity ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	vec2s delta = glms_vec2_scale( velocity, dt );
	if ( kcc_is_valid_vec2( delta ) == false )
	{
		return KCC_ERROR_TOO_LARGE;
	}
	return kcc_move_validate( c, delta );
}

// Whether c may join a batch on space, told without asserting (kcc_batch_check_all asserts with the message that fits).
static bool kcc_batch_member( const kcc_controller* c, const cpSpace* space )
{
#if defined( KCC_ENABLE_ASSERT )
	if ( c != NULL && kcc_registry_contains( c ) == false )
	{
		return false;
	}
#endif
	return c != NULL && c->space == space;
}

typedef struct kcc_batch_read_run
{
	kcc_snapshot* s;
	atomic_bool changed; ///< a body's shapes are no longer those of the last read (read again on the calling thread)
} kcc_batch_read_run;

// Where item falls in a list of count entries, of item_count items: items [start, end) stand for entries
// [share( start ), share( end )), every entry in one range.
static int kcc_batch_share( int item, int item_count, int count )
{
	return item_count > 0 ? (int)( (int64_t)item * count / item_count ) : 0;
}

// The shapes of the bodies that are not characters' (the listing reads those from their controllers), others[start ..
// end): work of the batch's start that needs no Chipmunk lock.
static void kcc_batch_read_task( int start, int end, int worker, void* context )
{
	(void)worker;
	kcc_batch_read_run* run = context;
	if ( kcc_snapshot_read_shapes( run->s, start, end ) == false )
	{
		atomic_store_explicit( &run->changed, true, memory_order_relaxed ); // finish orders it before the read
	}
}

typedef struct kcc_batch_list_run
{
	kcc_snapshot* s;
	kcc_controller* const* controllers;
	const vec2s* velocities;
	float dt;
	uint32_t stamp;
	bool waves;               ///< the batch has workers (may move in waves)
	int count;                ///< moves
	atomic_bool pending_left; ///< a pending shape needs kcc_snapshot_keep_pending
} kcc_batch_list_run;

// Stamps c with this batch's stamp and returns its last one. With workers, one exchange: of two places of c listed on
// two threads at once, the second tells. Alone, a load and a store do (an exchange is a locked instruction).
static uint32_t kcc_batch_stamp( kcc_controller* c, uint32_t stamp, bool workers )
{
	if ( workers )
	{
		return atomic_exchange_explicit( &c->batch_stamp, stamp, memory_order_relaxed );
	}
	uint32_t last = atomic_load_explicit( &c->batch_stamp, memory_order_relaxed );
	atomic_store_explicit( &c->batch_stamp, stamp, memory_order_relaxed );
	return last;
}

// Checks and lists moves [start, end) on worker: checks each move and its controller (kcc_batch_member,
// kcc_batch_check: a failure marks the batch refused), stamps the controller, finds its body in the snapshot and marks
// it a character's, reading its shape from the controller where the last read found it there. With workers, its shapes
// are marked as moved by the batch and its influence box is opened; without, its shapes' grid boxes take in its move
// (kcc_batch_array_boxes' box; the other shapes keep theirs, where they are). A controller given twice is listed by
// the place that stamps it first, whichever thread that is; the other place marks the batch refused and lists
// nothing. One pass over each character's memory, on the worker that moves it (kcc_thread_pool gives each worker the
// same share of every task). The task also does kcc_snapshot_keep_pending's common case on the workers: the same share
// of the pending shapes, each where the last batch left it (as a game's batches find them), has its bodies marked
// pending.
static void kcc_batch_list_task( int start, int end, int worker, void* context )
{
	kcc_batch_list_run* run = context;
	kcc_snapshot* s = run->s;
	kcc_batch_listing* l = s->listings + worker;
	int n = run->count, pending = s->pending_count;
	if ( pending > 0 && kcc_snapshot_mark_pending( s, kcc_batch_share( start, n, pending ),
												   kcc_batch_share( end, n, pending ) ) == false )
	{
		atomic_store_explicit( &run->pending_left, true, memory_order_relaxed ); // finish orders it before the read
	}
	for ( int i = start; i < end; ++i )
	{
		kcc_controller* c = run->controllers[i];
		if ( kcc_batch_member( c, s->space ) == false || kcc_batch_check( c, run->velocities[i], run->dt ) != KCC_OK )
		{
			l->bad = true;
			continue;
		}
		if ( kcc_batch_stamp( c, run->stamp, run->waves ) == run->stamp )
		{
			l->repeated = true;
			continue;
		}
		// A move reads the shapes its def's filter passes, and the sensors its sensor_mask passes
		// (kcc_world_may_read).
		kcc_filter_join( &l->readers, c->def.filter );
		l->sensor_mask |= c->def.sensor_mask;
		// A push moves a box along the motion left in the slide: at most the move's displacement (the parts of a
		// split move add up to it), a skin past where it touches.
		double displacement = (double)glms_vec2_norm( glms_vec2_scale( run->velocities[i], run->dt ) );
		c->batch_push = 0.0;
		if ( c->def.pushable_categories != 0 )
		{
			l->pushers += 1;
			l->pushable |= c->def.pushable_categories;
			c->batch_push = 2.0 * displacement + (double)c->def.skin;
		}
		// Where the last batch found the body, usually still right (the space lists its bodies in the same order).
		int b = c->batch_body;
		if ( b < 0 || b >= s->body_count || s->bodies[b].body != c->body )
		{
			b = kcc_snapshot_body_index( s, c->body );
		}
		c->batch_body = b;
		if ( b >= 0 && s->bodies[b].controller == c )
		{
			l->characters_readable += kcc_snapshot_read_character( s, b ) ? 1 : 0;
			l->characters_read += 1;
		}
		else if ( b >= 0 )
		{
			s->bodies[b].controller = c; // its shapes were read from Chipmunk
		}
		for ( int k = 0; b >= 0 && k < s->bodies[b].shape_count; ++k )
		{
			kcc_snapshot_shape* sh = s->shapes + s->bodies[b].first_shape + k;
			if ( run->waves )
			{
				kcc_snapshot_mark_writable( sh, &l->writable_solids, &l->writable_sensors );
			}
			else
			{
				sh->grid = kcc_bb_inflate( sh->indexed, displacement + (double)c->def.skin );
			}
		}
		if ( run->waves )
		{
			c->influence = cpBBNew( -INFINITY, -INFINITY, INFINITY, INFINITY ); // until its reach says otherwise
		}
	}
}

// Reads the space, checks every move (kcc_batch_check_all's tests: *checked is set when all passed), sets every shape's
// grid box and every move's influence box, and chooses between waves (when tasks are given, and the moves are spread
// out enough to pay for them) and array order. False when memory ran out, an input is bad or a character is in the
// batch twice (its second move starts where the first ends, unknown here).
static bool kcc_batch_prepare( kcc_snapshot* s, kcc_controller* const* controllers, int count, const vec2s* velocities,
							   float dt, const kcc_task_system* tasks, bool* checked )
{
	cpSpace* space = controllers[0]->space;
	// The bodies on this thread (Chipmunk's lock), then the shapes of those that are not characters' on the workers
	// (here, without workers). A known character's body is only counted: the listing reads its shape from its
	// controller.
	bool listed = kcc_snapshot_read_bodies( s, space, false );
	bool known = listed && s->same_bodies;
	kcc_batch_read_run read = { s, false };
	if ( known && s->other_count > 0 )
	{
		kcc_batch_run_task( tasks, kcc_batch_read_task, s->other_count, &read );
	}
	bool shapes_read = known && atomic_load_explicit( &read.changed, memory_order_relaxed ) == false;
	if ( listed == false || kcc_snapshot_read_end( s, shapes_read, count, false ) == false ||
		 kcc_batch_contexts( s, tasks != NULL ? tasks->worker_count : 1,
							 kcc_static_index_context( controllers[0]->static_index )->capacity ) == false )
	{
		return false;
	}
	// Each worker checks and lists the moves it will make (the same share of every task with kcc_thread_pool): their
	// controllers' memory stays in its core's cache.
	int workers = tasks != NULL ? tasks->worker_count : 1;
	memset( s->listings, 0, (size_t)workers * sizeof( *s->listings ) );
	kcc_batch_list_run list = { s, controllers, velocities, dt, s->stamp, tasks != NULL, count, false };
	kcc_batch_run_task( tasks, kcc_batch_list_task, count, &list );
	s->pending_marked = atomic_load_explicit( &list.pending_left, memory_order_relaxed ) == false;
	cpBitmask pushable = 0;
	int pushers = 0, characters_read = 0, characters_readable = 0;
	cpShapeFilter readers = cpShapeFilterNew( CP_NO_GROUP, 0, 0 );
	cpShapeFilter sensor_readers = cpShapeFilterNew( CP_NO_GROUP, CP_ALL_CATEGORIES, 0 );
	bool repeated = false, bad = false;
	for ( int w = 0; w < workers; ++w )
	{
		const kcc_batch_listing* l = s->listings + w;
		kcc_filter_join( &readers, l->readers );
		sensor_readers.mask |= l->sensor_mask;
		kcc_filter_join( &s->writable_solids, l->writable_solids );
		kcc_filter_join( &s->writable_sensors, l->writable_sensors );
		pushable |= l->pushable;
		pushers += l->pushers;
		characters_read += l->characters_read;
		characters_readable += l->characters_readable;
		repeated |= l->repeated;
		bad |= l->bad;
	}
	s->readers = readers;
	s->sensor_readers = sensor_readers;
	*checked = bad == false;
	if ( bad || repeated )
	{
		return false;
	}
	// Characters the batch does not move are still read (other moves meet them).
	if ( characters_read < s->character_count )
	{
		characters_readable += kcc_snapshot_read_characters( s );
	}
	// The characters' shapes are marked readable as the last batch's readers say; when these are the batch's readers,
	// and reject them all, the grid need not look at them.
	s->characters_hidden = readers.categories == s->readers_guess.categories &&
						   readers.mask == s->readers_guess.mask && characters_readable == 0;
	s->readers_guess = readers;
	// Summed in array order, as a bound the same for any worker count.
	double push_total = 0.0;
	for ( int i = 0; i < count && pushers > 0; ++i )
	{
		push_total += controllers[i]->batch_push;
	}
	for ( int i = 0; i < s->shape_count && pushable != 0; ++i )
	{
		if ( kcc_batch_crate( s, s->shapes + i, pushable ) && kcc_snapshot_add_crate( s, i ) == false )
		{
			return false;
		}
	}
	s->waves = false;
	if ( tasks == NULL )
	{
		return kcc_snapshot_build_grid( s );
	}
	if ( pushers == 0 && kcc_snapshot_any_walks( s ) == false )
	{
		// No move reads a shape another moves, and none pushes: each depends on its own shapes only, which no other
		// touches (no reach needed), all in one wave.
		s->walkers = 0;
		s->waves = true;
		return kcc_snapshot_build_grid( s );
	}
	// Too many pushers and crates for waves (kcc_batch_crate_reach would say so after the grid): array order at once.
	if ( kcc_batch_reach_affordable( s, count, pushers ) )
	{
		// Waves: a character's shapes may be anywhere within its reach, and so its grid box. Each character's on
		// the workers (it writes only its own controller and shapes).
		kcc_batch_reach_run run = { controllers, velocities, dt, s, pushable, push_total, 0 };
		kcc_batch_run_task( tasks, kcc_batch_reach_task, count, &run );
		if ( kcc_snapshot_build_grid( s ) == false )
		{
			return false;
		}
		s->walkers = atomic_load_explicit( &run.walkers, memory_order_relaxed );
		s->waves = kcc_batch_worth_waves( s, controllers, count, s->walkers );
		if ( s->waves && s->crate_count > 0 )
		{
			s->waves = kcc_batch_crate_reach( s, controllers, count, pushers, push_total );
			if ( s->waves && kcc_snapshot_build_grid( s ) == false )
			{
				return false;
			}
			s->waves = s->waves && kcc_batch_worth_waves( s, controllers, count, s->walkers );
		}
		if ( s->waves )
		{
			return true;
		}
	}
	kcc_batch_array_boxes( s, controllers, count, velocities, dt );
	return kcc_snapshot_build_grid( s );
}

// The space's snapshot (NULL when there is no static index or memory ran out: the batch then runs as sequential
// calls).
static kcc_snapshot* kcc_batch_snapshot( kcc_controller* c )
{
	return kcc_static_index_ready( c->static_index ) ? kcc_snapshot_of( c->static_index ) : NULL;
}

// One move of the batch, on worker's move context.
KCC_ALWAYS_INLINE void kcc_batch_move( kcc_controller* const* controllers, int i, const vec2s* velocities, float dt,
									   vec2s* out_velocities, kcc_move_result* out_results, kcc_snapshot* s, int worker )
{
	kcc_controller* c = controllers[i];
	KCC_ASSERT( worker >= 0 && worker < s->context_count,
				"kcc_move_and_slide_batch: the task system gave a worker number outside 0 .. worker_count - 1" );
	c->move = s->contexts + worker;
	c->batch = s;
	c->batch_mover = i;
	c->batch_seq = 0;
	c->batch_collision_count = 0;
	kcc_status status = kcc_move_and_slide( c, velocities[i], dt, out_velocities != NULL ? out_velocities + i : NULL,
											out_results != NULL ? out_results + i : NULL );
	KCC_ASSERT( status == KCC_OK, "kcc_move_and_slide_batch: a move checked by the batch failed" );
	(void)status;
	c->batch = NULL;
	c->move = kcc_static_index_context( c->static_index );
}

typedef struct kcc_batch_run
{
	kcc_controller* const* controllers;
	const vec2s* velocities;
	float dt;
	vec2s* out_velocities;
	kcc_move_result* out_results;
	kcc_snapshot* snapshot;
	const int* moves; ///< the moves of the wave running, as places in the batch's array (NULL: the array itself)
} kcc_batch_run;

// Asks for the line of c's state that the game reads between batches (its position and flags), to write it: when the
// game read it on another core, a worker's first write there waits for that core to give the line up. Asked for one
// move ahead, that wait overlaps the move before.
static void kcc_batch_prefetch_state( const kcc_controller* c )
{
#if defined( KCC_X86_PREFETCHW )
	// PREFETCHW where the processor has it (CPUID 0x80000001, ECX bit 8; older Intel processors lack it): -1 until
	// asked.
	static atomic_int has = -1;
	int known = atomic_load_explicit( &has, memory_order_relaxed );
	if ( known < 0 )
	{
		unsigned a, b, ecx, d;
		known = __get_cpuid( 0x80000001u, &a, &b, &ecx, &d ) && ( ecx & ( 1u << 8 ) ) != 0;
		atomic_store_explicit( &has, known, memory_order_relaxed );
	}
	if ( known != 0 )
	{
		__asm__( "prefetchw %0" : : "m"( *(const char*)&c->position ) );
	}
#elif defined( __GNUC__ ) || defined( __clang__ )
	__builtin_prefetch( &c->position, 1 );
#else
	(void)c;
#endif
}

// The place in the batch's array of the k-th move of the wave running.
static inline int kcc_batch_place( const kcc_batch_run* run, int k )
{
	return run->moves != NULL ? run->moves[k] : k;
}

static void kcc_batch_task( int start, int end, int worker, void* context )
{
	const kcc_batch_run* run = context;
	for ( int k = start; k < end; ++k )
	{
		if ( k + 1 < end )
		{
			kcc_batch_prefetch_state( run->controllers[kcc_batch_place( run, k + 1 )] );
		}
		kcc_batch_move( run->controllers, kcc_batch_place( run, k ), run->velocities, run->dt, run->out_velocities,
						run->out_results, run->snapshot, worker );
	}
}

// Moves far enough apart to neither read nor write what the other writes run in parallel: in waves, each move after
// every earlier one it depends on, a wave's moves on the workers, one wave after another. Any order of the moves
// within a wave gives the same results as array order.
static void kcc_batch_waves( kcc_batch_run* run, int count, const kcc_task_system* tasks )
{
	kcc_snapshot* s = run->snapshot;
	int* wave_start = s->slots; // count + 1 entries (waves are numbered from 1)
	int* moves = s->slots + count + 1;
	// When no move reads a shape another moves, each depends on its own shapes only, which no other move touches: all
	// in the first wave, in array order.
	int waves = 0;
	if ( s->walkers == 0 )
	{
		waves = 1;
		wave_start[1] = 0;
		moves = NULL;
	}
	else
	{
		memset( wave_start, 0, (size_t)( count + 1 ) * sizeof( *wave_start ) );
		for ( int i = 0; i < count; ++i )
		{
			kcc_controller* c = run->controllers[i];
			c->batch_wave = kcc_snapshot_wave( s, c );
			wave_start[c->batch_wave] += 1;
			waves = c->batch_wave > waves ? c->batch_wave : waves;
		}
		for ( int w = 1; w <= waves; ++w )
		{
			wave_start[w] += wave_start[w - 1];
		}
		// Each wave's moves in array order (a stable counting sort, filling each wave from its end).
		for ( int i = count - 1; i >= 0; --i )
		{
			moves[--wave_start[run->controllers[i]->batch_wave]] = i;
		}
	}
	// wave_start[w] is now wave w's first move.
	s->wave_count = waves;
	for ( int w = 1; w <= waves; ++w )
	{
		int first = wave_start[w];
		int size = ( w < waves ? wave_start[w + 1] : count ) - first;
		s->largest_wave = size > s->largest_wave ? size : s->largest_wave;
		run->moves = moves != NULL ? moves + first : NULL;
		// Ranges of a few moves: small enough to spread a wave over the workers, large enough that a task's cost
		// (a few microseconds) stays below its moves' own.
		int min_range = size / ( 4 * tasks->worker_count );
		min_range = min_range < 1 ? 1 : min_range > 16 ? 16 : min_range;
		void* handle = NULL;
		if ( size < 2 )
		{
			kcc_batch_task( 0, size, 0, run );
		}
		else
		{
			handle = tasks->enqueue( kcc_batch_task, size, min_range, run, tasks->user );
		}
		if ( w == 1 && s->pending_marked == false )
		{
			kcc_snapshot_keep_pending( s ); // while the workers move the first wave (no move reads what it writes)
		}
		if ( handle != NULL )
		{
			tasks->finish( handle, tasks->user );
		}
	}
}

// The first controller that may not join the batch (NULL, destroyed, or of another space than the first): its error,
// asserted with the message that fits (KCC_OK when every one may).
static kcc_status kcc_batch_check_controllers( kcc_controller* const* controllers, int count )
{
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
	}
	return KCC_OK;
}

// Every input, in the order of their errors: the controllers first, then each move's velocity and displacement
// (kcc_batch_check) in array order. KCC_OK when all are good.
static kcc_status kcc_batch_check_all( kcc_controller* const* controllers, int count, const vec2s* velocities,
										float dt )
{
	kcc_status status = kcc_batch_check_controllers( controllers, count );
	for ( int i = 0; i < count && status == KCC_OK; ++i )
	{
		status = kcc_batch_check( controllers[i], velocities[i], dt );
	}
	return status;
}

kcc_status kcc_move_and_slide_batch( kcc_controller* const* controllers, int count, const vec2s* velocities,
									 float dt, vec2s* out_velocities, kcc_move_result* out_results,
									 const kcc_task_system* tasks )
{
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
	// Every input checked before anything moves, with the same error for any worker count (kcc_batch_check_all): the
	// first controller here (its space is the batch's), the rest as the batch lists them, or here when it cannot.
	bool waves = tasks != NULL && tasks->worker_count > 1 && tasks->enqueue != NULL && tasks->finish != NULL;
	bool checked = false;
	kcc_status status = kcc_batch_check_controllers( controllers, 1 );
	if ( status != KCC_OK )
	{
		return status;
	}
	kcc_controller* first = controllers[0];
	status = KCC_SPACE_ACQUIRE( first, "kcc_move_and_slide_batch" );
	if ( status != KCC_OK )
	{
		kcc_status input = kcc_batch_check_all( controllers, count, velocities, dt );
		return input != KCC_OK ? input : status;
	}
	// A paused frame, or a character twice in the batch (kcc_batch_prepare tells): sequential moves on Chipmunk's
	// queries.
	kcc_snapshot* s = dt == 0.0f ? NULL : kcc_batch_snapshot( first );
	if ( s != NULL && kcc_batch_prepare( s, controllers, count, velocities, dt, waves ? tasks : NULL, &checked ) )
	{
		s->wave_count = 0;
		s->largest_wave = 0;
		kcc_batch_run run = { controllers, velocities, dt, out_velocities, out_results, s, NULL };
		if ( s->waves )
		{
			kcc_batch_waves( &run, count, tasks );
		}
		else
		{
			if ( s->pending_marked == false )
			{
				kcc_snapshot_keep_pending( s );
			}
			for ( int i = 0; i < count; ++i )
			{
				kcc_batch_move( controllers, i, velocities, dt, out_velocities, out_results, s, 0 );
			}
		}
		// What sequential calls did after each move, in array order on this thread: reindex the bodies it moved
		// (those no later move moved again; or leave them to kcc_space_sync), then the impulses to the dynamic bodies
		// it met.
		bool deferred = first->static_index->deferred_sync;
		// Deferred, with every body moved pending already (each frame after the first): nothing to list.
		bool reindex = deferred == false || kcc_snapshot_moved_unpending( s );
		if ( reindex )
		{
			kcc_snapshot_order_moved( s, count );
		}
		// Impulses go to dynamic bodies only, all of which the snapshot holds.
		bool impulses = s->dynamic_count > 0;
		for ( int i = 0; i < count && ( reindex || impulses ); ++i )
		{
			kcc_controller* c = controllers[i];
			if ( reindex )
			{
				kcc_snapshot_reindex_mover( s, c, i, deferred );
			}
			if ( impulses )
			{
				kcc_push_dynamic( c, c->batch_velocity, c->batch_collisions, c->batch_collision_count );
			}
		}
		kcc_snapshot_spent( s );
		kcc_space_release( first );
		return KCC_OK;
	}
	kcc_space_release( first );
	status = checked ? KCC_OK : kcc_batch_check_all( controllers, count, velocities, dt );
	if ( status != KCC_OK )
	{
		return status;
	}
	for ( int i = 0; i < count; ++i )
	{
		status = kcc_move_and_slide( controllers[i], velocities[i], dt,
									 out_velocities != NULL ? out_velocities + i : NULL,
									 out_results != NULL ? out_results + i : NULL );
		KCC_ASSERT( status == KCC_OK, "kcc_move_and_slide_batch: a move checked by the batch failed" );
	}
	return status;
}

kcc_status kcc_space_set_deferred_sync( cpSpace* space, bool deferred )
{
	KCC_ASSERT( space != NULL, "kcc_space_set_deferred_sync: space is NULL" );
	if ( space == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_static_index* index = kcc_static_index_find( space );
	if ( index == NULL )
	{
		KCC_ASSERT( false, "kcc_space_set_deferred_sync: no controller uses the space (create one first)" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( deferred == false )
	{
		kcc_status status = kcc_space_sync( space );
		if ( status != KCC_OK )
		{
			return status;
		}
	}
	index->deferred_sync = deferred;
	return KCC_OK;
}

kcc_status kcc_space_sync( cpSpace* space )
{
	KCC_ASSERT( space != NULL, "kcc_space_sync: space is NULL" );
	if ( space == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_static_index* index = kcc_static_index_find( space );
	kcc_snapshot* s = index != NULL ? *kcc_static_index_snapshot( index ) : NULL;
	if ( s == NULL || s->pending_count == 0 )
	{
		return KCC_OK;
	}
	if ( cpSpaceIsLocked( space ) )
	{
		KCC_ASSERT( false, "kcc_space_sync: the space is locked (called from a Chipmunk callback?)" );
		return KCC_ERROR_SPACE_LOCKED;
	}
	kcc_snapshot_sync( s, space, true );
	return KCC_OK;
}
