// SPDX-License-Identifier: MIT
// Pushing: kinematic bodies whose shapes are in pushable_categories are moved by the character, and dynamic bodies
// receive the impulse of an inelastic contact with a character of def.mass.
//
// A push is one solve over the crates in the way. Every crate moves along the one push direction, so the chain is a
// shortest-path problem: a crate's reach is how far the pusher travels before the crate starts moving (0 for the
// crate hit; for the others, the least over the crates that meet them of their reach plus the free gap between the
// two). The push goes as far as the nearest blocker allows (a crate's reach plus its free gap to something that is not
// pushed), and each crate then moves by that distance minus its reach. Two crates of the chain never close in by
// more than the gap between them, so nothing ends deeper in anything than it started. Crates are settled nearest
// first (Dijkstra), each cast once against the candidates: the cost is linear in the crates touched.
#include "internal.h"
#include "../geometry/internal.h"

#include <float.h>

// Bodies one push weighs at once: the ones moved and the ones found in their way. Beyond it a body found in the way
// blocks, as one past KCC_MAX_PUSHED_BODIES does.
#define KCC_PUSH_NODES ( 4 * KCC_MAX_PUSHED_BODIES )

typedef struct kcc_push_node
{
	const cpBody* body;        ///< identity: a kinematic body among the candidates
	const kcc_candidate* key;  ///< its first shape in kcc_candidate_before's order: the tie-break among equal reaches
	float reach;               ///< how far the pusher moves before this body starts moving
	bool settled;
} kcc_push_node;

typedef struct kcc_push_solve
{
	kcc_push_node nodes[KCC_PUSH_NODES];
	int count;
	vec2s dir;         ///< unit push direction
	float limit;       ///< how far the pusher may go: the push's length, lowered by every blocker met
	bool grounded;
	vec2s up;
	kcc_shape pusher;  ///< the character, where it stands: it blocks the crates too
	kcc_aabb pusher_bounds;
} kcc_push_solve;

// Lowest and highest extent of a box along up.
static float kcc_bounds_along( kcc_aabb b, vec2s up, bool highest )
{
	float x = ( up.x >= 0.0f ) == highest ? b.max.x : b.min.x;
	float y = ( up.y >= 0.0f ) == highest ? b.max.y : b.min.y;
	return x * up.x + y * up.y;
}

static bool kcc_aabb_inside( kcc_aabb inner, kcc_aabb outer )
{
	return inner.min.x >= outer.min.x && inner.min.y >= outer.min.y && inner.max.x <= outer.max.x &&
		   inner.max.y <= outer.max.y;
}

// Least travel along dir (unit) before box a, moving, can touch box b; FLT_MAX when it never does. A cheap lower bound
// of a cast's distance, so that casts which cannot matter are skipped.
static float kcc_aabb_entry( kcc_aabb a, kcc_aabb b, vec2s dir )
{
	float entry = 0.0f, exit = FLT_MAX;
	for ( int axis = 0; axis < 2; ++axis )
	{
		float d = dir.raw[axis];
		float lo = b.min.raw[axis] - a.max.raw[axis]; // a's offset along the axis at which they start to meet
		float hi = b.max.raw[axis] - a.min.raw[axis]; // and stop meeting
		if ( d == 0.0f )
		{
			if ( lo > 0.0f || hi < 0.0f )
			{
				return FLT_MAX;
			}
			continue;
		}
		float t0 = lo / d, t1 = hi / d;
		if ( t0 > t1 )
		{
			float t = t0;
			t0 = t1;
			t1 = t;
		}
		entry = kcc_maxf( entry, t0 );
		exit = kcc_minf( exit, t1 );
	}
	return exit < entry || exit < 0.0f ? FLT_MAX : entry;
}

static kcc_push_node* kcc_push_find( kcc_push_solve* solve, const cpBody* body )
{
	for ( int i = 0; i < solve->count; ++i )
	{
		if ( solve->nodes[i].body == body )
		{
			return solve->nodes + i;
		}
	}
	return NULL;
}

// A pushable body met at reach: it starts moving then, unless it is reached earlier by another path. False when
// there is no room for it (it then blocks).
static bool kcc_push_reach( kcc_push_solve* solve, const cpBody* body, const kcc_candidate* shape, float reach )
{
	kcc_push_node* node = kcc_push_find( solve, body );
	if ( node == NULL )
	{
		if ( solve->count == KCC_PUSH_NODES )
		{
			return false;
		}
		node = solve->nodes + solve->count++;
		node->body = body;
		node->key = shape;
		node->reach = reach;
		node->settled = false;
		return true;
	}
	if ( node->settled == false )
	{
		node->reach = kcc_minf( node->reach, reach );
		if ( kcc_candidate_before( shape, node->key ) )
		{
			node->key = shape;
		}
	}
	return true;
}

// The next body to settle: the least reach, ties broken by geometry (never by the order bodies were found).
static kcc_push_node* kcc_push_next( kcc_push_solve* solve )
{
	kcc_push_node* best = NULL;
	for ( int i = 0; i < solve->count; ++i )
	{
		kcc_push_node* n = solve->nodes + i;
		if ( n->settled == false &&
			 ( best == NULL || n->reach < best->reach ||
			   ( n->reach == best->reach && kcc_candidate_before( n->key, best->key ) ) ) )
		{
			best = n;
		}
	}
	return best;
}

// The free travel of moving along dir by up to length before it touches target, keeping the skin; -1 when target
// does not block it (no contact, or one it moves along or away from). Starting inside target, moving deeper is
// blocked at once and moving out is free: crates that already overlap are never pushed deeper.
static float kcc_push_gap( const kcc_controller* c, const kcc_shape* moving, const kcc_shape* target, vec2s dir,
						   float length )
{
	vec2s translation = glms_vec2_scale( dir, length );
	kcc_cast_output out = kcc_shape_cast_trusted( moving, translation, target, 0.0f );
	if ( out.hit == false )
	{
		return -1.0f;
	}
	if ( out.fraction <= 0.0f && kcc_has_normal( out.normal ) == false )
	{
		kcc_penetration_output pen = kcc_penetration_trusted( target, moving );
		if ( pen.overlapping == false || kcc_has_normal( pen.normal ) == false ||
			 glms_vec2_dot( dir, pen.normal ) >= 0.0f )
		{
			return -1.0f;
		}
		return 0.0f;
	}
	float approach = -glms_vec2_dot( dir, out.normal );
	if ( approach <= 0.0f )
	{
		return -1.0f;
	}
	return kcc_maxf( out.fraction * length - kcc_skin_backoff( c->def.skin, approach ), 0.0f );
}

// Casts the shapes of node's body along the push, up to the limit: lowers the limit at every blocker, reaches the
// pushable bodies in the way.
static void kcc_push_settle( kcc_controller* c, kcc_push_solve* solve, kcc_push_node* node )
{
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate* box = c->move->candidates + i;
		float length = solve->limit - node->reach;
		if ( length <= 0.0f )
		{
			return;
		}
		if ( box->sensor || kcc_world_shape_body( box ) != node->body )
		{
			continue;
		}
		kcc_candidate_ready( c, box );
		if ( box->blocks == false || box->core.type == KCC_SHAPE_INVALID )
		{
			continue;
		}
		kcc_aabb start = box->bounds;
		kcc_aabb swept =
			kcc_aabb_inflate( kcc_aabb_union( start, kcc_aabb_offset( start, glms_vec2_scale( solve->dir, length ) ) ),
							  KCC_CULL_MARGIN );
		if ( kcc_aabb_inside( swept, c->move->region ) == false )
		{
			// One query for this crate, and the next ones of a row (two of its sizes ahead), outside the move's own
			// budget of region growths (which is for the character's path): at most KCC_MAX_PUSHED_BODIES queries.
			// Solids only: the sensors the character's path meets are candidates already.
			float span = fabsf( solve->dir.x ) * ( start.max.x - start.min.x ) +
						 fabsf( solve->dir.y ) * ( start.max.y - start.min.y );
			vec2s ahead = glms_vec2_scale( solve->dir, length + 2.0f * span );
			int growths = c->move->region_growths;
			bool solids = c->move->gather_solids;
			c->move->region_growths = KCC_MAX_REGION_GROWTHS - 1;
			c->move->gather_solids = true;
			kcc_world_cover( c, kcc_aabb_union( swept, kcc_aabb_offset( start, ahead ) ) );
			c->move->gather_solids = solids;
			c->move->region_growths = growths;
		}
		if ( kcc_aabb_inside( swept, c->move->region ) == false || c->move->candidate_overflow )
		{
			// Shapes in its way may be missing from the candidates: it does not move.
			solve->limit = node->reach;
			return;
		}
		float bottom = kcc_bounds_along( start, solve->up, false );
		// The character pushing blocks its crates like any other shape (its own shape is never a candidate).
		if ( kcc_aabb_overlaps_aabb( swept, solve->pusher_bounds ) )
		{
			float gap = kcc_push_gap( c, &box->core, &solve->pusher, solve->dir, length );
			if ( gap >= 0.0f )
			{
				solve->limit = kcc_minf( solve->limit, node->reach + gap );
			}
		}
		for ( int j = 0; j < c->move->candidate_count; ++j )
		{
			kcc_candidate* other = c->move->candidates + j;
			length = solve->limit - node->reach;
			if ( length <= 0.0f )
			{
				return;
			}
			if ( other->blocks == false || kcc_aabb_overlaps_aabb( swept, other->bounds ) == false )
			{
				continue;
			}
			const cpBody* body = kcc_world_shape_body( other );
			if ( body == node->body )
			{
				continue;
			}
			float entry = kcc_aabb_entry( start, kcc_aabb_inflate( other->bounds, KCC_CULL_MARGIN ), solve->dir );
			if ( entry >= length )
			{
				continue;
			}
			kcc_candidate_ready( c, other );
			if ( other->one_way || other->core.type == KCC_SHAPE_INVALID )
			{
				continue; // one-way shapes block from above only: a push passes them, as a character does
			}
			float top = kcc_bounds_along( other->bounds, solve->up, true );
			if ( solve->grounded && top <= bottom + KCC_ROUNDING_DISTANCE )
			{
				continue; // the floor the crate slides over (its tiles' corners are level with the crate's bottom)
			}
			const cpBody* next = other->pushable ? kcc_world_kinematic_body( other ) : NULL;
			kcc_push_node* known = next != NULL ? kcc_push_find( solve, next ) : NULL;
			// A gap is at least the entry less the largest skin back-off (a grazing contact).
			float least_gap = entry - kcc_skin_backoff( c->def.skin, 0.0f );
			if ( known != NULL && ( known->settled || known->reach <= node->reach + least_gap ) )
			{
				continue; // moving already, or reached no later by another path
			}
			float gap = kcc_push_gap( c, &box->core, &other->core, solve->dir, length );
			if ( gap < 0.0f )
			{
				continue;
			}
			if ( next == NULL || kcc_push_reach( solve, next, other, node->reach + gap ) == false )
			{
				solve->limit = kcc_minf( solve->limit, node->reach + gap );
			}
		}
	}
}

vec2s kcc_push_body( kcc_controller* c, const cpBody* body, const kcc_candidate* hit, vec2s push, vec2s from )
{
	float length = glms_vec2_norm( push );
	if ( !( length > KCC_ROUNDING_DISTANCE ) )
	{
		return kcc_v2( 0.0f, 0.0f );
	}
	kcc_push_solve solve;
	solve.count = 0;
	solve.dir = glms_vec2_scale( push, 1.0f / length );
	solve.limit = length;
	solve.grounded = c->def.mode == KCC_MODE_GROUNDED;
	solve.up = c->def.up;
	kcc_character_at( c, from, &solve.pusher );
	solve.pusher_bounds = kcc_aabb_offset( c->local_bounds, from );
	kcc_push_reach( &solve, body, hit, 0.0f );
	int moved_count = 0;
	for ( ;; )
	{
		kcc_push_node* node = kcc_push_next( &solve );
		if ( node == NULL || node->reach >= solve.limit )
		{
			break;
		}
		if ( moved_count == KCC_MAX_PUSHED_BODIES )
		{
			// One body too many: the chain goes as far as it can without moving it.
			solve.limit = node->reach;
			break;
		}
		node->settled = true;
		moved_count += 1;
		kcc_push_settle( c, &solve, node );
	}
	// Every body settled moves by what is left of the push once the pusher reaches it.
	float travel = kcc_maxf( solve.limit, 0.0f );
	for ( int i = 0; i < solve.count; ++i )
	{
		const kcc_push_node* n = solve.nodes + i;
		if ( n->settled && n->reach < travel )
		{
			kcc_world_move_body( c, n->body, glms_vec2_scale( solve.dir, travel - n->reach ) );
		}
	}
	return glms_vec2_scale( solve.dir, travel );
}

void kcc_push_dynamic( kcc_controller* c, vec2s velocity, const kcc_collision* collisions, int count )
{
	if ( c->def.mass <= 0.0f )
	{
		return;
	}
	for ( int i = 0; i < count; ++i )
	{
		const kcc_collision* col = collisions + i;
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
