// SPDX-License-Identifier: MIT
// The controller's side of the cpSpace, through Chipmunk's public API: its own body and shape, the one bounding box
// query per move, the bodies it rides, and keeping its shape indexed where it is. Shape conversion is in
// chipmunk_shapes.c. Every float <-> double conversion goes through chipmunk_bridge.h.
#include "chipmunk_bridge.h"
#include "internal.h"
#include "static_index.h"

#include <stddef.h>
#include <string.h>

// The Chipmunk shape of the controller's local shape, on body, filtered and tagged as the controller's.
static cpShape* kcc_world_make_shape( const kcc_controller* c, cpBody* body )
{
	const kcc_shape* s = &c->local_shape;
	cpShape* shape = NULL;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			shape = cpCircleShapeNew( body, kcc_bridge_to_double( s->circle.radius ),
									  kcc_bridge_to_cpv( s->circle.center ) );
			break;
		case KCC_SHAPE_CAPSULE:
			shape = cpSegmentShapeNew( body, kcc_bridge_to_cpv( s->capsule.a ), kcc_bridge_to_cpv( s->capsule.b ),
									   kcc_bridge_to_double( s->capsule.radius ) );
			break;
		case KCC_SHAPE_POLYGON:
		{
			cpVect verts[KCC_MAX_POLYGON_VERTICES];
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				verts[i] = kcc_bridge_to_cpv( s->polygon.vertices[i] );
			}
			// Our polygon is already a counter-clockwise convex hull: no second hull.
			shape = cpPolyShapeNewRaw( body, s->polygon.count, verts, kcc_bridge_to_double( s->polygon.radius ) );
			break;
		}
		default:
			break;
	}
	if ( shape != NULL )
	{
		cpShapeSetFilter( shape, c->query_filter );
		cpShapeSetUserData( shape, (void*)c );
	}
	return shape;
}

bool kcc_world_create( kcc_controller* c )
{
	cpBody* body = cpBodyNewKinematic();
	if ( body == NULL )
	{
		return false;
	}
	cpBodySetPosition( body, kcc_bridge_to_cpv( c->position ) );
	cpShape* shape = kcc_world_make_shape( c, body );
	if ( shape == NULL )
	{
		cpBodyFree( body );
		return false;
	}
	cpSpaceAddBody( c->space, body );
	cpSpaceAddShape( c->space, shape );
	c->body = body;
	c->shape = shape;
	c->shape_bb = cpShapeGetBB( shape );
	c->static_body = cpSpaceGetStaticBody( c->space );
	c->indexed_position = c->position;
	return true;
}

bool kcc_world_replace_shape( kcc_controller* c )
{
	cpShape* shape = kcc_world_make_shape( c, c->body );
	if ( shape == NULL )
	{
		return false;
	}
	cpSpaceRemoveShape( c->space, c->shape );
	cpShapeFree( c->shape );
	cpSpaceAddShape( c->space, shape );
	kcc_snapshot_forget_character( c ); // its place in the batch's snapshot holds the old shape: read the body afresh
	c->shape = shape;
	c->shape_bb = cpShapeGetBB( shape );
	c->leaf_bb = cpBBNew( 0.0, 0.0, 0.0, 0.0 ); // a new leaf (kcc_world_reindex_character)
	c->leaf_shape = c->leaf_bb;
	return true;
}

void kcc_world_destroy( kcc_controller* c )
{
	if ( c->stale )
	{
		c->stale = false;
		kcc_world_clear_dead( c->space, c->stale_bb );
	}
	if ( c->shape != NULL )
	{
		if ( cpSpaceContainsShape( c->space, c->shape ) )
		{
			cpSpaceRemoveShape( c->space, c->shape );
		}
		cpShapeFree( c->shape );
		c->shape = NULL;
	}
	if ( c->body != NULL )
	{
		kcc_snapshot_forget_character( c );
		if ( cpSpaceContainsBody( c->space, c->body ) )
		{
			cpSpaceRemoveBody( c->space, c->body );
		}
		cpBodyFree( c->body );
		c->body = NULL;
	}
}

// Whether the gather wants a shape of these flags: not the dropped kind (sensors when gathering solids), and passing
// the character's filter or sensor_mask when the query's own filter could not apply them.
static inline bool kcc_gather_wants( const kcc_controller* c, bool sensor, cpShapeFilter f )
{
	if ( sensor && c->move->gather_solids )
	{
		return false;
	}
	if ( c->filter_in_callback )
	{
		return sensor ? ( f.categories & c->def.sensor_mask ) != 0 : kcc_filter_reads( c->def.filter, f );
	}
	return true;
}

// Whether the gather met as many shapes as the move's splitting decisions can tell apart (kcc_move_part reads the
// count up to max_candidates << KCC_MAX_SPLIT_DEPTH). Past it the buffer is full: no further shape can change the move.
static inline bool kcc_gather_counted_enough( const kcc_controller* c )
{
	return (int64_t)c->move->candidate_found > (int64_t)c->def.max_candidates << KCC_MAX_SPLIT_DEPTH;
}

// Appends a candidate (a shape found by either query); false when the buffer is full.
static inline bool kcc_gather_add( kcc_controller* c, cpShape* shape, cpBB bb, bool sensor,
								   const kcc_static_shape* source )
{
	c->move->candidate_found += 1;
	if ( c->move->candidate_count >= c->def.max_candidates )
	{
		c->move->candidate_overflow = true;
		return false;
	}
	kcc_candidate* cand = c->move->candidates + c->move->candidate_count++;
	cand->bb = bb;
	cand->bounds.min = kcc_bridge_relative( cpv( bb.l, bb.b ), c->move->origin );
	cand->bounds.max = kcc_bridge_relative( cpv( bb.r, bb.t ), c->move->origin );
	cand->shape = shape;
	cand->source = source;
	cand->order = c->move->candidate_count - 1;
	cand->piece = 0;
	cand->sensor = sensor;
	cand->blocks = sensor == false && shape != c->drop_shape;
	c->move->has_sensors |= sensor;
	cand->converted = false;
	if ( source != NULL )
	{
		kcc_candidate_roles( c, cand, source->filter.categories ); // a static shape is never a character's
	}
	return true;
}

bool kcc_world_may_read( const kcc_controller* c, const cpShape* shape, cpShapeFilter f, bool sensor )
{
	if ( shape == c->shape || kcc_filter_rejects( f, c->gather_filter ) )
	{
		return false;
	}
	// What kcc_gather_wants tells from these alone (dropping sensors when gathering solids only drops more).
	return c->filter_in_callback == false || ( sensor ? ( f.categories & c->def.sensor_mask ) != 0
													  : kcc_gather_wants( c, false, f ) );
}

static bool kcc_gather_reads( const kcc_snapshot_shape* shape, void* data )
{
	return kcc_world_may_read( data, shape->shape, shape->filter, shape->sensor );
}

// Chipmunk's answer: every shape but the static ones when the static index answers for them.
static void kcc_gather_callback( cpShape* shape, void* data )
{
	kcc_controller* c = data;
	if ( shape == c->shape )
	{
		return;
	}
	if ( c->move->static_from_index )
	{
		const cpBody* body = cpShapeGetBody( shape );
		if ( body == c->static_body || cpBodyGetType( (cpBody*)body ) == CP_BODY_TYPE_STATIC )
		{
			return; // the space's own static body (the usual case) is told without a call
		}
	}
	bool sensor = cpShapeGetSensor( shape ) != cpFalse;
	if ( kcc_gather_wants( c, sensor, c->filter_in_callback ? cpShapeGetFilter( shape ) : CP_SHAPE_FILTER_ALL ) == false )
	{
		return;
	}
	cpBB bb = cpShapeGetBB( shape );
	if ( c->move->clip_query && cpBBIntersects( c->move->clip_box, bb ) == false )
	{
		return;
	}
	if ( c->move->gather_known )
	{
		if ( cpBBIntersects( c->move->gather_known_bb, bb ) )
		{
			return; // already a candidate: found by the query this one grows
		}
		for ( int i = 0; i < c->move->candidate_count; ++i )
		{
			if ( c->move->candidates[i].shape == shape )
			{
				return; // a pushed body's shape, moved here during the move
			}
		}
	}
	kcc_gather_add( c, shape, bb, sensor, NULL );
}

// The static index's answer. Once the buffer is full, counting stops where the move's splitting decisions no longer
// depend on the count (KCC_MAX_SPLIT_DEPTH): a query meeting any number of shapes then costs a bounded time. Inlined
// into the index's walk.
KCC_ALWAYS_INLINE bool kcc_gather_static( const kcc_static_shape* s, void* data )
{
	kcc_controller* c = data;
	if ( kcc_gather_wants( c, s->sensor, kcc_static_shape_filter( s ) ) == false )
	{
		return true;
	}
	if ( c->move->gather_known && cpBBIntersects( c->move->gather_known_bb, s->bb ) )
	{
		return true; // already a candidate: found by the query this one grows (static shapes do not move)
	}
	return kcc_gather_add( c, s->shape, s->bb, s->sensor, s ) || kcc_gather_counted_enough( c ) == false;
}

// The sort's keys: a candidate of the static index keeps what Chipmunk said when the index was built (its cpShape
// is never touched).
static double kcc_candidate_area( const kcc_candidate* cand )
{
	return cand->source != NULL ? kcc_static_shape_area( cand->source ) : cpShapeGetArea( cand->shape );
}

static cpBitmask kcc_candidate_categories( const kcc_candidate* cand )
{
	return cand->source != NULL ? cand->source->filter.categories : cpShapeGetFilter( cand->shape ).categories;
}

static int kcc_candidate_body_type( const kcc_candidate* cand )
{
	return cand->source != NULL ? (int)CP_BODY_TYPE_STATIC : (int)cpBodyGetType( cpShapeGetBody( cand->shape ) );
}

// Geometric order of two candidates found by a query (their cores not converted yet): the bounding box, then what
// tells apart shapes of one box (area, sensor, categories, body type). Equal keys: the same shape for a move.
static int kcc_world_compare( const kcc_candidate* a, const kcc_candidate* b )
{
	const double ka[4] = { a->bb.l, a->bb.b, a->bb.r, a->bb.t };
	const double kb[4] = { b->bb.l, b->bb.b, b->bb.r, b->bb.t };
	for ( int i = 0; i < 4; ++i )
	{
		if ( ka[i] != kb[i] )
		{
			return ka[i] < kb[i] ? -1 : 1;
		}
	}
	double area_a = kcc_candidate_area( a ), area_b = kcc_candidate_area( b );
	if ( area_a != area_b )
	{
		return area_a < area_b ? -1 : 1;
	}
	if ( a->sensor != b->sensor )
	{
		return a->sensor ? 1 : -1;
	}
	cpBitmask ca = kcc_candidate_categories( a ), cb = kcc_candidate_categories( b );
	if ( ca != cb )
	{
		return ca < cb ? -1 : 1;
	}
	int ta = kcc_candidate_body_type( a ), tb = kcc_candidate_body_type( b );
	return ta < tb ? -1 : ta > tb ? 1 : 0;
}

// Puts the candidates from first on in geometric order: every loop over them, and every tie left to the order they
// come in, then depends on the world only, never on the order its shapes were added or on the spatial index.
// Insertion sort (no allocation; a query's answer is short, and an index often returns it nearly sorted). Only the
// fields a query fills are moved: the cores are not converted yet.
KCC_ALWAYS_INLINE void kcc_world_sort( kcc_controller* c, int first )
{
	kcc_candidate* cands = c->move->candidates;
	int count = c->move->candidate_count;
	bool moved = false; // each candidate's order is its place as the query added it, until one moves
	for ( int i = first + 1; i < count; ++i )
	{
		if ( kcc_world_compare( cands + i - 1, cands + i ) <= 0 )
		{
			continue;
		}
		moved = true;
		kcc_candidate moving;
		memcpy( &moving, cands + i, offsetof( kcc_candidate, core ) );
		int j = i;
		while ( j > first && kcc_world_compare( cands + j - 1, &moving ) > 0 )
		{
			memcpy( cands + j, cands + j - 1, offsetof( kcc_candidate, core ) );
			j -= 1;
		}
		memcpy( cands + j, &moving, offsetof( kcc_candidate, core ) );
	}
	for ( int i = first; i < count && moved; ++i )
	{
		cands[i].order = i;
	}
}

static cpBB kcc_world_box( const kcc_controller* c, kcc_aabb region )
{
	cpVect lo = kcc_bridge_world( c->move->origin, region.min );
	cpVect hi = kcc_bridge_world( c->move->origin, region.max );
	return cpBBNew( lo.x, lo.y, hi.x, hi.y );
}

typedef struct kcc_static_cache_fill
{
	kcc_static_cache* cache;
	const kcc_static_shape* shapes; ///< the index's
} kcc_static_cache_fill;

static bool kcc_static_cache_add( const kcc_static_shape* s, void* data )
{
	kcc_static_cache_fill* fill = data;
	kcc_static_cache* k = fill->cache;
	if ( k->count == KCC_STATIC_CACHE_SHAPES )
	{
		k->count = -1; // too many around: the queries here walk the index
		return false;
	}
	k->shapes[k->count++] = (uint32_t)( s - fill->shapes );
	return true;
}

// Lists the static shapes around box in the character's cache: its walk reaches KCC_STATIC_CACHE_REACH character sizes
// beyond box.
static void kcc_static_cache_refill( kcc_controller* c, cpBB box )
{
	const kcc_static_index* index = c->static_index;
	kcc_static_cache* k = &c->static_cache;
	k->box = kcc_bb_inflate( box, (double)KCC_STATIC_CACHE_REACH * (double)kcc_character_size( c ) );
	k->build = index->build;
	k->count = 0;
	kcc_static_cache_fill fill = { k, index->shapes };
	kcc_static_index_query( index, k->box, c->gather_filter, kcc_static_cache_add, &fill );
}

// The static shapes meeting box, for the gather: those of the character's cache when it holds box and they cannot
// overflow the candidates, else the index's walk (after a query outside the cache, it holds the shapes around that
// query's box). The cache gives the shapes the walk finds, in another order only where the gather's sort orders them
// (shapes of one box come in the order of the cells they share).
KCC_ALWAYS_INLINE void kcc_world_static_query( kcc_controller* c, cpBB box )
{
	const kcc_static_index* index = c->static_index;
	kcc_static_cache* k = &c->static_cache;
	if ( k->build != index->build || cpBBContainsBB( k->box, box ) == false )
	{
		kcc_static_cache_refill( c, box );
	}
	if ( k->count < 0 || k->count > c->def.max_candidates - c->move->candidate_count )
	{
		kcc_static_index_walk( index, box, c->gather_filter, kcc_gather_static, c );
		return;
	}
	kcc_grid_box query = kcc_grid_box_of( box );
	for ( int i = 0; i < k->count; ++i )
	{
		const kcc_static_shape* s = index->shapes + k->shapes[i];
		if ( kcc_grid_box_meets( query, &s->bb ) && kcc_gather_static( s, c ) == false )
		{
			return;
		}
	}
}

// One query over box: the static shapes from the index (when ready), the others from Chipmunk, or in a batch from
// the batch's snapshot (which holds exactly what Chipmunk's query would return there).
KCC_ALWAYS_INLINE void kcc_world_query( kcc_controller* c, cpBB box )
{
	c->move->static_from_index = kcc_static_index_ready( c->static_index );
	if ( c->move->static_from_index )
	{
		kcc_world_static_query( c, box );
	}
	// When the static shapes alone fill the buffer and the count, the other shapes are not looked for: inside thousands
	// of static shapes, Chipmunk's query would visit every one of them (its index holds them too).
	bool enough = c->move->static_from_index && kcc_gather_counted_enough( c );
	if ( c->batch != NULL )
	{
		KCC_ASSERT( c->batch->waves == false || ( box.l >= c->influence.l && box.b >= c->influence.b &&
												  box.r <= c->influence.r && box.t <= c->influence.t ),
					"kcc_move_and_slide_batch: a query box leaves the move's influence box" );
		if ( enough == false )
		{
			kcc_snapshot_query( c->batch, box, c->gather_filter, kcc_gather_reads, kcc_gather_callback, c );
		}
		return;
	}
	// Chipmunk's index must hold the bodies deferred batches moved where they are now (a move never allocates).
	kcc_snapshot* s = c->static_index != NULL ? *kcc_static_index_snapshot( c->static_index ) : NULL;
	if ( s != NULL && s->pending_count > 0 )
	{
		kcc_snapshot_sync( s, c->space, false );
	}
	if ( enough )
	{
		return; // the character's dead entries, if any, wait (kcc_world_sync_body)
	}
	// The first query after the character moved also walks the cells where Chipmunk's spatial hash left dead entries
	// of its shape (kcc_world_sync_body), when they are close: one query instead of two.
	if ( c->stale )
	{
		c->stale = false;
		cpBB both = cpBBMerge( box, c->stale_bb );
		if ( cpBBArea( both ) <= 2.0 * cpBBArea( box ) )
		{
			c->move->clip_query = true;
			c->move->clip_box = box;
			box = both;
		}
		else
		{
			kcc_world_clear_dead( c->space, c->stale_bb );
		}
	}
	cpSpaceBBQuery( c->space, box, c->gather_filter, kcc_gather_callback, c );
	c->move->clip_query = false;
}

void kcc_world_gather( kcc_controller* c, kcc_aabb region )
{
	c->move->candidate_count = 0;
	c->move->candidate_found = 0;
	c->move->candidate_overflow = false;
	c->move->region_truncated = false;
	c->move->has_sensors = false;
	c->move->gather_known = false;
	c->move->region = region;
	c->move->region_growths = 0;
	kcc_world_query( c, kcc_world_box( c, region ) );
	kcc_world_sort( c, 0 );
}

void kcc_world_gather_solids( kcc_controller* c, kcc_aabb region )
{
	c->move->gather_solids = true;
	kcc_world_gather( c, region );
	c->move->gather_solids = false;
}

void kcc_world_grow( kcc_controller* c, kcc_aabb box )
{
	const kcc_aabb* r = &c->move->region;
	if ( c->move->candidate_overflow || c->move->region_growths >= KCC_MAX_REGION_GROWTHS )
	{
		c->move->region_truncated = true; // bounded cost: what is not found is not considered, and the move says so
		return;
	}
	// Grow by the character's size beyond what is needed, so that a path leaving the region grows it rarely.
	kcc_aabb grown = kcc_aabb_union( *r, kcc_aabb_inflate( box, kcc_character_size( c ) ) );
	c->move->gather_known = true;
	c->move->gather_known_bb = kcc_world_box( c, *r );
	c->move->region = grown;
	c->move->region_growths += 1;
	int first = c->move->candidate_count;
	kcc_world_query( c, kcc_world_box( c, grown ) );
	kcc_world_sort( c, first );
	c->move->gather_known = false;
	c->move->region_truncated |= c->move->candidate_overflow;
}

const cpBody* kcc_world_shape_body( const kcc_candidate* candidate )
{
	return candidate->source != NULL ? NULL : cpShapeGetBody( candidate->shape );
}

const cpBody* kcc_world_kinematic_body( const kcc_candidate* candidate )
{
	const cpBody* body = kcc_world_shape_body( candidate );
	return body != NULL && cpBodyGetType( (cpBody*)body ) == CP_BODY_TYPE_KINEMATIC ? body : NULL;
}

typedef struct kcc_body_search
{
	const cpBody* wanted;
	const cpBody* found;
} kcc_body_search;

static void kcc_find_body_callback( cpBody* body, void* data )
{
	kcc_body_search* search = data;
	if ( body == search->wanted )
	{
		search->found = body;
	}
}

const cpBody* kcc_world_find_body( const kcc_controller* c, const cpBody* body )
{
	if ( c->batch != NULL )
	{
		return kcc_snapshot_body_index( c->batch, body ) >= 0 ? body : NULL;
	}
	kcc_body_search search = { body, NULL };
	cpSpaceEachBody( c->space, kcc_find_body_callback, &search );
	return search.found;
}

void kcc_world_body_pose( const cpBody* body, cpVect* position, double* angle )
{
	// The centre of gravity: what Chipmunk rotates a body about.
	*position = cpBodyLocalToWorld( body, cpBodyGetCenterOfGravity( body ) );
	*angle = cpBodyGetAngle( body );
}

static void kcc_cache_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	(void)data;
	cpShapeCacheBB( shape );
}

// After a pushed body moved: reindexed at once by a single call; in a batch, its shapes' boxes are updated (what
// later moves of the batch read) and the batch reindexes it at its end.
static void kcc_world_place_body( kcc_controller* c, cpBody* body )
{
	if ( c->batch != NULL )
	{
		cpBodyEachShape( body, kcc_cache_shape, NULL );
		kcc_snapshot_note_moved( c, kcc_snapshot_body_index( c->batch, body ) );
		return;
	}
	kcc_space_reindex_body( c->space, body );
}

void kcc_world_move_body( kcc_controller* c, const cpBody* body, vec2s offset )
{
	cpBody* moving = (cpBody*)body;
	cpBodySetPosition( moving, cpvadd( cpBodyGetPosition( moving ), kcc_bridge_to_cpv( offset ) ) );
	kcc_world_place_body( c, moving );
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( cand->source == NULL && cpShapeGetBody( cand->shape ) == moving )
		{
			cpBB bb = cpShapeGetBB( cand->shape );
			cand->bb = bb;
			cand->bounds.min = kcc_bridge_relative( cpv( bb.l, bb.b ), c->move->origin );
			cand->bounds.max = kcc_bridge_relative( cpv( bb.r, bb.t ), c->move->origin );
			cand->converted = false;
		}
	}
}

void kcc_world_impulse( kcc_controller* c, const cpBody* shape_body, vec2s velocity, vec2s point, vec2s normal )
{
	cpBody* body = (cpBody*)shape_body;
	if ( body == NULL || cpBodyGetType( body ) != CP_BODY_TYPE_DYNAMIC )
	{
		return;
	}
	cpVect p = kcc_bridge_to_cpv( point );
	cpVect n = kcc_bridge_to_cpv( normal );
	// Closing speed along the normal (out of the body, toward the character): negative when they close in.
	double closing = cpvdot( cpvsub( kcc_bridge_to_cpv( velocity ), cpBodyGetVelocityAtWorldPoint( body, p ) ), n );
	double mass = cpBodyGetMass( body ), moment = cpBodyGetMoment( body );
	if ( !( closing < 0.0 ) || !( mass > 0.0 ) )
	{
		return;
	}
	cpVect arm = cpvsub( p, cpBodyLocalToWorld( body, cpBodyGetCenterOfGravity( body ) ) );
	double turn = cpvcross( arm, n );
	double inverse = 1.0 / kcc_bridge_to_double( c->def.mass ) + 1.0 / mass + ( moment > 0.0 ? turn * turn / moment : 0.0 );
	double j = -closing / inverse;
	cpBodyApplyImpulseAtWorldPoint( body, cpvmult( n, -j ), p );
}

vec2s kcc_world_body_velocity( const cpBody* body, cpVect point )
{
	return kcc_bridge_from_cpv( cpBodyGetVelocityAtWorldPoint( (cpBody*)body, point ) );
}

// Whether a move of the batch may read a shape of body b (in the snapshot's bodies).
static bool kcc_batch_reads_body( const kcc_snapshot* s, int b )
{
	bool read = false;
	for ( int k = 0; k < s->bodies[b].shape_count; ++k )
	{
		read |= s->shapes[s->bodies[b].first_shape + k].readable;
	}
	return read;
}

/// Moves of the character's own motion its leaf in Chipmunk's default tree keeps room for.
#define KCC_LEAF_MOVES 10.0

// Chipmunk's default tree reinserts a shape (and recomputes its pairs) when the shape leaves its leaf: the shape's box
// grown by 10% of its size, and along the body's velocity by 0.1 s of it. A walking character would leave it on most
// moves. So for the reindex that reinserts it, the body gets the velocity whose 0.1 s is KCC_LEAF_MOVES of the last
// move's motion (at most the shape's size): the next moves stay in the leaf. Where that motion turns back on the
// motion of the move before, which reinserted it too, the leaf grows back toward where the character came from: one
// going to and fro then stays in it (a reinsertion walks every static shape the leaf meets). leaf_bb is that leaf as
// the tree computes it; where the guess is wrong (another reindex, or the spatial hash, which has no leaves) only the
// speed differs.
static void kcc_world_reindex_character( kcc_controller* c )
{
	cpVect p = kcc_bridge_to_cpv( c->position ); // the body's position (kcc_world_sync_body)
	if ( cpBBContainsBB( c->leaf_bb, cpBBOffset( c->leaf_shape, p ) ) )
	{
		cpSpaceReindexShape( c->space, c->shape );
		c->shape_bb = cpShapeGetBB( c->shape );
		c->leaf_grown = cpvzero;
		return;
	}
	cpBB local = c->leaf_shape;
	double w = local.r - local.l, h = local.t - local.b;
	cpVect m = c->leaf_motion, last = c->leaf_grown;
	cpVect along = cpv( m.x * last.x < 0.0 ? -m.x : m.x, m.y * last.y < 0.0 ? -m.y : m.y );
	c->leaf_grown = m;
	cpVect reach = cpv( cpfclamp( KCC_LEAF_MOVES * along.x, -w, w ), cpfclamp( KCC_LEAF_MOVES * along.y, -h, h ) );
	const double coef = 0.1f; // Chipmunk's, a float in double
	cpVect velocity = cpvmult( reach, 1.0 / coef );
	cpBodySetVelocity( c->body, velocity );
	cpSpaceReindexShape( c->space, c->shape );
	cpBodySetVelocity( c->body, cpvzero );
	cpVect v = cpvmult( velocity, coef ); // the tree's own arithmetic
	cpBB bb = cpShapeGetBB( c->shape );
	c->shape_bb = bb;
	double x = ( bb.r - bb.l ) * coef, y = ( bb.t - bb.b ) * coef;
	c->leaf_bb = cpBBNew( bb.l + cpfmin( -x, v.x ), bb.b + cpfmin( -y, v.y ), bb.r + cpfmax( x, v.x ),
						  bb.t + cpfmax( y, v.y ) );
	c->leaf_shape = cpBBOffset( bb, cpvneg( p ) );
}

void kcc_world_sync_body( kcc_controller* c )
{
	// A character that did not move keeps its place in the index.
	if ( c->indexed_position.x == c->position.x && c->indexed_position.y == c->position.y )
	{
		return;
	}
	cpBodySetPosition( c->body, kcc_bridge_to_cpv( c->position ) );
	c->leaf_motion = cpv( (double)c->position.x - (double)c->indexed_position.x,
						  (double)c->position.y - (double)c->indexed_position.y );
	if ( c->batch != NULL )
	{
		// As kcc_world_place_body, for the body's one shape. Its box is read by the later moves that may read it, and
		// by the game after a deferred batch; else the reindex at the batch's end is the first to read it, and
		// computes it itself.
		int b = c->batch_body;
		if ( c->static_index->deferred_sync || b < 0 || kcc_batch_reads_body( c->batch, b ) )
		{
			c->shape_bb = cpShapeCacheBB( c->shape );
		}
		kcc_snapshot_note_moved( c, b );
	}
	else if ( c->stale )
	{
		// The move made no Chipmunk query to clear the dead entries in (kcc_world_query): as outside a move.
		kcc_world_reindex_owned( c, cpShapeGetBB( c->shape ) );
	}
	else
	{
		// The dead entries the spatial hash leaves behind are cleared by the character's next query.
		c->stale_bb = cpShapeGetBB( c->shape );
		kcc_world_reindex_character( c );
		c->stale = true;
		c->stale_reindexes = KCC_STALE_REINDEXES; // the next query clears them
	}
	c->indexed_position = c->position;
}

static void kcc_ignore_shape( cpShape* shape, void* data )
{
	(void)shape;
	(void)data;
}

// Chipmunk's spatial hash reindexes a shape by inserting a new entry and only marking the old one dead: the dead
// entries stay in each cell the shape covered until a query walks that cell. A cell no query reaches (the path of a
// platform nobody stands near) grows by one entry per frame, and so does the cost of every insertion into it. A query
// of the old bounds walks exactly those cells and frees them; it reports nothing (mask 0).
void kcc_world_clear_dead( cpSpace* space, cpBB old )
{
	cpSpaceBBQuery( space, old, cpShapeFilterNew( CP_NO_GROUP, 0, 0 ), kcc_ignore_shape, NULL );
}

// Outside the character's moves there is no query of its own to clear the dead entries in: they join those it owes
// (stale_bb) while that box stays within twice the shape's, for at most KCC_STALE_REINDEXES reindexes; then one query
// clears them all. The character's next single call clears them too.
void kcc_world_reindex_owned( kcc_controller* c, cpBB old )
{
	kcc_world_reindex_character( c );
	if ( c->stale )
	{
		cpBB both = cpBBMerge( c->stale_bb, old );
		if ( c->stale_reindexes < KCC_STALE_REINDEXES && cpBBArea( both ) <= 2.0 * cpBBArea( old ) )
		{
			c->stale_bb = both;
			c->stale_reindexes += 1;
			return;
		}
		kcc_world_clear_dead( c->space, c->stale_bb );
	}
	c->stale = true;
	c->stale_bb = old;
	c->stale_reindexes = 1;
}

kcc_controller* kcc_world_character_of( const cpShape* shape )
{
	kcc_controller* c = cpShapeGetUserData( shape );
	return kcc_registry_contains( c ) && c->shape == shape ? c : NULL;
}

void kcc_world_reindex_shape( cpSpace* space, cpShape* shape, cpBB old )
{
	cpSpaceReindexShape( space, shape );
	kcc_world_clear_dead( space, old );
}

static void kcc_reindex_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	kcc_world_reindex_shape( data, shape, cpShapeGetBB( shape ) );
}

kcc_status kcc_space_reindex_body( cpSpace* space, cpBody* body )
{
	KCC_ASSERT( space != NULL && body != NULL, "kcc_space_reindex_body: space or body is NULL" );
	if ( space == NULL || body == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( cpSpaceIsLocked( space ) )
	{
		KCC_ASSERT( false, "kcc_space_reindex_body: the space is locked (called from a Chipmunk callback?)" );
		return KCC_ERROR_SPACE_LOCKED;
	}
	cpBodyEachShape( body, kcc_reindex_shape, space );
	return KCC_OK;
}
