// SPDX-License-Identifier: MIT
// The move, in the order of DESIGN.md: validate, carry, query, depenetrate, cast and slide, ground, zones, commit.
#include "chipmunk_bridge.h"
#include "internal.h"

#include <string.h>

// kcc_move_region, inline in kcc_move_part (which also takes the length of delta).
KCC_ALWAYS_INLINE kcc_aabb kcc_region( const kcc_controller* c, vec2s p, vec2s delta )
{
	// Every position the slide can reach (a half disc of radius |delta| in the direction of delta: clipped motion is
	// never longer than what remains and never goes against delta) around the shape; below it the ground probe's
	// reach, above it the step height; the skin all around.
	float len = glms_vec2_norm( delta );
	kcc_aabb r = kcc_aabb_offset( c->local_bounds, p );
	if ( len > 0.0f )
	{
		vec2s d = glms_vec2_scale( delta, 1.0f / len );
		r.max.x += d.x >= 0.0f ? len : len * fabsf( d.y );
		r.min.x -= d.x <= 0.0f ? len : len * fabsf( d.y );
		r.max.y += d.y >= 0.0f ? len : len * fabsf( d.x );
		r.min.y -= d.y <= 0.0f ? len : len * fabsf( d.x );
	}
	vec2s up = c->def.up;
	float below = 0.0f;
	float above = c->def.step_height;
	// A step moves forward at least step_forward, in any lateral direction.
	float around = c->def.step_height > 0.0f ? c->step_forward : 0.0f;
	if ( c->def.mode == KCC_MODE_GROUNDED )
	{
		// The probe's reach, and half a skin more.
		below = kcc_snap_reach( c, glms_vec2_norm( kcc_lateral( delta, up ) ) ) + kcc_probe_reach( c ) + 0.5f * c->def.skin;
	}
	// Along up: above, along -up: below (up need not be axis aligned).
	vec2s hi = glms_vec2_scale( up, above );
	vec2s lo = glms_vec2_scale( up, -below );
	r.min.x += kcc_minf( kcc_minf( hi.x, lo.x ), 0.0f );
	r.min.y += kcc_minf( kcc_minf( hi.y, lo.y ), 0.0f );
	r.max.x += kcc_maxf( kcc_maxf( hi.x, lo.x ), 0.0f );
	r.max.y += kcc_maxf( kcc_maxf( hi.y, lo.y ), 0.0f );
	return kcc_aabb_inflate( r, around + 2.0f * c->def.skin + KCC_QUERY_MARGIN );
}

kcc_aabb kcc_move_region( const kcc_controller* c, vec2s p, vec2s delta )
{
	return kcc_region( c, p, delta );
}

// Records a contact in the result; its index there, or -1.
static int kcc_record_collision( kcc_move_accumulator* acc, kcc_controller* c, const kcc_sweep* s, float travel,
								 uint32_t kind )
{
	kcc_move_result* out = acc->out;
	if ( out == NULL || out->collision_count >= KCC_MAX_COLLISIONS )
	{
		return -1;
	}
	kcc_collision* col = out->collisions + out->collision_count++;
	col->point = kcc_bridge_offset( c->move->origin, s->point );
	col->normal = s->normal;
	col->travel = acc->travel + travel;
	col->shape = s->candidate->shape;
	col->flags = kind;
	c->collision_bodies[out->collision_count - 1] = kcc_world_shape_body( s->candidate );
	return out->collision_count - 1;
}

static void kcc_remove_collision( kcc_move_accumulator* acc, kcc_controller* c, int index )
{
	kcc_move_result* out = acc->out;
	if ( out == NULL || index < 0 || index >= out->collision_count )
	{
		return;
	}
	for ( int i = index; i + 1 < out->collision_count; ++i )
	{
		out->collisions[i] = out->collisions[i + 1];
		c->collision_bodies[i] = c->collision_bodies[i + 1];
	}
	out->collision_count -= 1;
}

static void kcc_remove_plane( kcc_plane_list* planes, int index )
{
	if ( index < 0 || index >= planes->count )
	{
		return;
	}
	for ( int i = index; i + 1 < planes->count; ++i )
	{
		planes->normals[i] = planes->normals[i + 1];
		planes->kinds[i] = planes->kinds[i + 1];
	}
	planes->count -= 1;
}

// Constant speed downhill: walking down a slope never touches it (the snap follows it afterwards), so the lateral
// input would cover |lateral| horizontally, |lateral| / cos(angle) along the slope. Starting on the floor, the
// lateral part is turned along the floor instead, keeping its length (uphill, the floor contact does it).
static vec2s kcc_along_floor( const kcc_controller* c, vec2s delta )
{
	vec2s up = c->def.up;
	vec2s n = c->floor_normal;
	float vertical = glms_vec2_dot( delta, up );
	vec2s lateral = kcc_lateral( delta, up );
	float away = glms_vec2_dot( lateral, n );
	if ( vertical <= 0.0f && away > 0.0f && glms_vec2_dot( n, up ) < KCC_PARALLEL_COSINE )
	{
		vec2s along = glms_vec2_muladds( n, -away, lateral );
		float along_length = glms_vec2_norm( along );
		if ( along_length > 0.0f )
		{
			delta = glms_vec2_muladds( up, vertical, glms_vec2_scale( along, glms_vec2_norm( lateral ) / along_length ) );
		}
	}
	return delta;
}

// The character's positions through a move piece (local frame), for the zone events along it.
typedef struct kcc_path
{
	vec2s points[2 + 2 * KCC_MAX_SLIDES + 2]; // start, push-out; per cast: its end and a nudge; step, snap
	int count;
} kcc_path;

// A point equal to the last one replaces it: the same place, but its bits are the latest (a -0 that became +0), which
// the end of the move must match.
KCC_ALWAYS_INLINE void kcc_path_add( kcc_path* path, vec2s p )
{
	const int capacity = (int)( sizeof( path->points ) / sizeof( path->points[0] ) );
	if ( path->count > 0 && path->points[path->count - 1].x == p.x && path->points[path->count - 1].y == p.y )
	{
		path->points[path->count - 1] = p;
		return;
	}
	path->points[path->count < capacity ? path->count++ : capacity - 1] = p;
}

// The floors a move stood on, each direction once (the last ones are kept when there are more).
static void kcc_add_support( vec2s* supports, int* count, vec2s normal )
{
	for ( int i = 0; i < *count; ++i )
	{
		if ( glms_vec2_dot( supports[i], normal ) >= KCC_PARALLEL_COSINE )
		{
			return;
		}
	}
	supports[*count < KCC_MAX_SUPPORTS ? ( *count )++ : KCC_MAX_SUPPORTS - 1] = normal;
}

// Appends a world position to the result's path (the first one kept, then the latest ones). One equal to the last
// replaces it (its bits are the latest), except the start: the path runs from the start to the end bit for bit.
static inline void kcc_path_push( kcc_move_result* out, vec2s world )
{
	int n = out->path_count;
	if ( n > 0 && out->path[n - 1].x == world.x && out->path[n - 1].y == world.y )
	{
		if ( n > 1 )
		{
			out->path[n - 1] = world;
			return;
		}
		if ( memcmp( &out->path[0], &world, sizeof( vec2s ) ) == 0 )
		{
			return;
		}
	}
	if ( out->path_count == KCC_MAX_PATH_POINTS )
	{
		for ( int i = 1; i + 1 < KCC_MAX_PATH_POINTS; ++i )
		{
			out->path[i] = out->path[i + 1];
		}
		out->path_count -= 1;
	}
	out->path[out->path_count++] = world;
}

void kcc_result_path_add( kcc_move_result* out, vec2s world )
{
	if ( out != NULL )
	{
		kcc_path_push( out, world );
	}
}

// One sub-move (a piece) as it goes: the state its phases share, in the local frame centred on c->move->origin.
typedef struct kcc_piece
{
	kcc_controller* c;
	kcc_move_accumulator* acc;
	kcc_slide_params params;
	vec2s up;
	bool grounded_mode;
	bool was_on_floor;     ///< the last move ended on a floor
	bool moving_up;        ///< the move leaves the floor it stood on (a jump)
	bool may_step;
	vec2s delta;           ///< the input, shaped (kcc_piece_shape_input)
	vec2s p;               ///< where the character is
	vec2s r;               ///< the motion left
	float travel;          ///< path length so far
	uint32_t flags;
	kcc_path path;
	int first_plane;       ///< the piece's planes in acc->planes start here (kcc_slide_remaining's creases)
	bool hit_floor;        ///< a floor was met on the way
	bool on_floor;         ///< on a floor at the end
	vec2s floor_normal;
	const kcc_candidate* floor_candidate;
	vec2s supports[KCC_MAX_SUPPORTS];
	int support_count;
	vec2s blocked_lateral; ///< the lateral motion left when the first wall blocked it (what a step climbs)
	bool blocked;
	int blocked_collision; ///< where that wall is in out->collisions
	int blocked_plane;     ///< and in acc->planes
	bool other_wall;       ///< a wall other than that first one was met
	vec2s wall_before;     ///< the last wall of the earlier pieces
	const cpBody* pushed_body; ///< the body pushed in this piece
	kcc_step_result step;  ///< a step climbed in the piece
} kcc_piece;

static void kcc_piece_begin( kcc_piece* m, kcc_controller* c, vec2s delta, kcc_move_accumulator* acc )
{
	m->c = c;
	m->acc = acc;
	m->params = kcc_slide_params_of( c );
	m->up = c->def.up;
	m->grounded_mode = c->def.mode == KCC_MODE_GROUNDED;
	m->was_on_floor = ( c->flags & KCC_ON_FLOOR ) != 0;
	m->moving_up = false;
	m->may_step = false;
	m->delta = delta;
	m->p = kcc_v2( 0.0f, 0.0f );
	m->r = kcc_v2( 0.0f, 0.0f );
	m->travel = 0.0f;
	m->flags = 0;
	m->path.count = 0; // only the first count points are ever read: the rest is not cleared
	kcc_path_add( &m->path, m->p );
	m->first_plane = acc->planes->count;
	m->hit_floor = false;
	m->on_floor = false;
	m->floor_normal = m->up;
	m->floor_candidate = NULL;
	m->support_count = 0;
	m->blocked_lateral = kcc_v2( 0.0f, 0.0f );
	m->blocked = false;
	m->blocked_collision = -1;
	m->blocked_plane = -1;
	m->other_wall = false;
	m->wall_before = acc->wall_normal;
	m->pushed_body = NULL;
	m->step = ( kcc_step_result ){ 0 };
}

// Moves the character to q, a part of the path.
KCC_ALWAYS_INLINE void kcc_piece_go( kcc_piece* m, vec2s q )
{
	m->p = q;
	kcc_path_add( &m->path, q );
}

// Step 2: starting overlapping (spawned inside, the world changed), the character is pushed out first.
static void kcc_piece_depenetrate( kcc_piece* m )
{
	kcc_controller* c = m->c;
	if ( kcc_depenetrate_clear( c, m->p ) )
	{
		// Nothing to push out of: no call (the depenetration would return where the character is).
		c->carry_missed = kcc_v2( 0.0f, 0.0f );
		return;
	}
	bool pushed, crushed;
	vec2s p = kcc_depenetrate( c, m->p, &pushed, &crushed );
	c->carry_missed = kcc_v2( 0.0f, 0.0f ); // only where the carry ended
	kcc_piece_go( m, p );
	if ( pushed )
	{
		m->flags |= KCC_DEPENETRATED;
		// The push may leave the region the query covered: grow it around the new start.
		kcc_world_cover( c, kcc_move_region( c, p, m->delta ) );
	}
	if ( crushed )
	{
		m->flags |= KCC_CRUSHED;
	}
}

// The input as the floor takes it: along the floor at constant speed, without the lift a walk up a slope kept, and
// whether the move leaves the floor (a jump).
static void kcc_piece_shape_input( kcc_piece* m )
{
	const kcc_controller* c = m->c;
	const kcc_controller_def* def = &c->def;
	vec2s up = m->up;
	if ( m->grounded_mode && def->constant_speed_on_slopes && m->was_on_floor )
	{
		m->delta = kcc_along_floor( c, m->delta );
	}
	// Leaving the floor (a jump): going up, and away from every floor it stood on in the last move (walking up a
	// slope, or rolling over an edge, at the speed along them does not leave them, and what follows is snapped to).
	bool moving_up = glms_vec2_dot( m->delta, up ) > 0.0f;
	for ( int i = 0; i < c->support_count && moving_up && m->was_on_floor; ++i )
	{
		moving_up = glms_vec2_dot( m->delta, c->supports[i] ) > 0.0f;
	}
	m->moving_up = moving_up;
	m->params.leaving = moving_up;
	if ( m->grounded_mode && def->stop_on_slope && m->was_on_floor && moving_up == false &&
		 glms_vec2_dot( m->delta, up ) > 0.0f )
	{
		// On the floor and not leaving it, the floor takes the upward part of the input as it takes the downward part
		// (move_and_slide's velocity on an uphill floor is lifted along it): the walk goes up slopes at the slope's
		// speed however much of that lift the game kept.
		m->delta = kcc_lateral( m->delta, up );
	}
	m->may_step = m->grounded_mode && def->step_height > 0.0f && moving_up == false;
}

// Hit handler: a ceiling's or a ledge's corner clipped by the character's edge is slipped around (no collision).
static bool kcc_piece_corner( kcc_piece* m, const kcc_sweep* s )
{
	kcc_controller* c = m->c;
	if ( c->def.corner_correction <= 0.0f )
	{
		return false;
	}
	vec2s nudged;
	kcc_sweep blocked_here = *s;
	blocked_here.travel = 0.0f;
	if ( kcc_corner_nudge( c, m->p, m->r, &blocked_here, m->was_on_floor || m->hit_floor, &nudged ) == false )
	{
		return false;
	}
	// Around the corner it clipped: the motion goes on from there.
	m->travel += glms_vec2_distance( m->p, nudged );
	kcc_piece_go( m, nudged );
	m->flags |= KCC_CORNER_CORRECTED;
	return true;
}

// Hit handler: a pushable body is pushed by the motion left (sideways when GROUNDED), then the character goes on. False
// when the body did not move: it blocks like any wall.
static bool kcc_piece_push( kcc_piece* m, const kcc_sweep* s, uint32_t kind )
{
	kcc_controller* c = m->c;
	const cpBody* box = s->candidate->pushable ? kcc_world_kinematic_body( s->candidate ) : NULL;
	if ( box == NULL || kind == KCC_KIND_FLOOR )
	{
		return false;
	}
	vec2s push = m->grounded_mode ? kcc_lateral( m->r, m->up ) : m->r;
	vec2s moved = glms_vec2_dot( push, s->normal ) < 0.0f ? kcc_push_body( c, box, s->candidate, push, m->p )
														  : kcc_v2( 0.0f, 0.0f );
	bool moving = glms_vec2_norm( moved ) > KCC_ROUNDING_DISTANCE;
	if ( moving == false && box != m->pushed_body )
	{
		return false;
	}
	// A contact that neither blocks nor clips the velocity.
	kcc_record_collision( m->acc, c, s, m->travel, kind | KCC_PUSHED );
	m->flags |= KCC_PUSHED;
	if ( moving )
	{
		m->pushed_body = box;
	}
	else
	{
		m->r = kcc_clip_vector( m->r, s->normal ); // caught up with the body pushed in this move
	}
	return true;
}

// Hit handler: a round bottom meeting the edge of a step (walkable there, so no wall blocked it) goes over it as over
// a riser, forward by the lateral motion left: sliding along the edge would slow it on every step.
static bool kcc_piece_step_over_edge( kcc_piece* m, const kcc_sweep* s, uint32_t kind )
{
	vec2s up = m->up;
	if ( kind != KCC_KIND_FLOOR || m->may_step == false || ( m->was_on_floor || m->hit_floor ) == false ||
		 glms_vec2_dot( s->normal, up ) >= KCC_PARALLEL_COSINE || glms_vec2_norm( kcc_lateral( m->r, up ) ) <= 0.0f )
	{
		return false;
	}
	m->step = kcc_try_step( m->c, m->p, kcc_lateral( m->r, up ), &s->normal );
	return m->step.stepped;
}

// Hit handler: a floor, wall or ceiling blocks: recorded, and the motion left slides along it (and the creases it
// makes with the surfaces met before).
static void kcc_piece_block( kcc_piece* m, const kcc_sweep* s, uint32_t kind, bool last_slide )
{
	kcc_controller* c = m->c;
	const kcc_controller_def* def = &c->def;
	int recorded = kcc_record_collision( m->acc, c, s, m->travel, kind );
	kcc_plane_list* planes = m->acc->planes;
	if ( kind == KCC_KIND_FLOOR )
	{
		m->hit_floor = true;
		m->floor_normal = s->normal;
		m->floor_candidate = s->candidate;
		kcc_add_support( m->supports, &m->support_count, s->normal );
	}
	else
	{
		m->flags |= kind;
	}
	if ( kind == KCC_KIND_WALL )
	{
		m->acc->wall_normal = s->normal;
		if ( m->blocked == false )
		{
			m->blocked_lateral = kcc_lateral( m->r, m->up );
			m->blocked = true;
			m->blocked_collision = recorded;
			m->blocked_plane = planes->count;
		}
		else
		{
			m->other_wall = true;
		}
	}
	m->params.on_floor = m->was_on_floor || m->hit_floor;
	m->r = kcc_slide_remaining( &m->params, planes->normals + m->first_plane, planes->count - m->first_plane, m->delta,
								m->r, s->normal, kind );
	if ( planes->count < KCC_MAX_MOVE_PLANES ) // always: a piece adds at most max_slides planes
	{
		planes->normals[planes->count] = s->normal;
		planes->kinds[planes->count] = kind;
		planes->count += 1;
	}
	if ( last_slide && glms_vec2_norm( m->r ) >= def->min_move && glms_vec2_norm( m->r ) > 0.0f )
	{
		m->flags |= KCC_HIT_LIMIT;
	}
}

// Steps 3 to 5: cast along the motion left, advance to the contact keeping the skin, and let the hit's handler
// decide what remains; at most max_slides casts.
static void kcc_piece_slide( kcc_piece* m )
{
	kcc_controller* c = m->c;
	const kcc_controller_def* def = &c->def;
	m->r = m->delta;
	for ( int slide = 0; slide < def->max_slides; ++slide )
	{
		// A motion shorter than min_move is not cast (the input itself, or what the slides left of it).
		float r_length = glms_vec2_norm( m->r );
		if ( r_length <= 0.0f || r_length < def->min_move )
		{
			return;
		}
		kcc_sweep s = kcc_sweep_character( c, m->p, m->r );
		if ( s.hit == false )
		{
			kcc_piece_go( m, glms_vec2_add( m->p, m->r ) );
			m->travel += r_length;
			m->r = kcc_v2( 0.0f, 0.0f );
			return;
		}
		vec2s dir = glms_vec2_scale( m->r, 1.0f / r_length );
		kcc_piece_go( m, glms_vec2_muladds( dir, s.travel, m->p ) );
		m->travel += s.travel;
		m->r = glms_vec2_scale( m->r, ( r_length - s.travel ) / r_length );
		if ( kcc_piece_corner( m, &s ) )
		{
			continue;
		}
		uint32_t kind = kcc_classify_normal( s.normal, m->up, c->cos_floor, def->mode );
		if ( kcc_piece_push( m, &s, kind ) )
		{
			continue;
		}
		if ( kcc_piece_step_over_edge( m, &s, kind ) )
		{
			return;
		}
		kcc_piece_block( m, &s, kind, slide == def->max_slides - 1 );
	}
}

// Step 6, the step: the first wall that blocked the lateral motion is climbed when it is a step's riser. The riser
// is then no collision: it neither clips the velocity nor counts as a wall.
static void kcc_piece_climb( kcc_piece* m, bool grounded )
{
	kcc_controller* c = m->c;
	if ( m->step.stepped == false && m->may_step && grounded && m->blocked &&
		 glms_vec2_norm( m->blocked_lateral ) > 0.0f )
	{
		m->step = kcc_try_step( c, m->p, m->blocked_lateral, NULL );
		if ( m->step.stepped )
		{
			kcc_remove_collision( m->acc, c, m->blocked_collision );
			kcc_remove_plane( m->acc->planes, m->blocked_plane );
			if ( m->other_wall == false )
			{
				m->flags &= ~(uint32_t)KCC_ON_WALL;
				m->acc->wall_normal = m->wall_before; // the riser was the only wall (any other came after it)
			}
		}
	}
	if ( m->step.stepped )
	{
		m->travel += glms_vec2_norm( glms_vec2_sub( m->step.position, m->p ) );
		kcc_piece_go( m, m->step.position );
		m->flags |= KCC_STEPPED;
		m->hit_floor = true;
		m->on_floor = true;
		m->floor_normal = m->step.normal;
		m->floor_candidate = m->step.floor;
	}
}

// Step 6, the ground: the floor below the character, snapped to when it stood on one and does not jump.
static void kcc_piece_probe( kcc_piece* m, bool grounded )
{
	kcc_controller* c = m->c;
	if ( m->on_floor || ( m->moving_up && m->hit_floor == false ) )
	{
		return;
	}
	bool allow_snap = c->def.snap_distance > 0.0f && grounded && m->moving_up == false;
	float lateral = glms_vec2_norm( kcc_lateral( m->delta, m->up ) );
	kcc_ground_result g = kcc_ground_probe( c, m->p, kcc_snap_reach( c, lateral ), allow_snap );
	if ( g.on_floor )
	{
		m->travel += glms_vec2_norm( glms_vec2_sub( g.position, m->p ) );
		kcc_piece_go( m, g.position );
		m->on_floor = true;
		m->floor_normal = g.normal;
		m->floor_candidate = g.floor;
		if ( g.snapped )
		{
			m->flags |= KCC_SNAPPED;
		}
	}
}

static void kcc_piece_ground( kcc_piece* m )
{
	if ( m->grounded_mode )
	{
		bool grounded = m->was_on_floor || m->hit_floor;
		kcc_piece_climb( m, grounded );
		kcc_piece_probe( m, grounded );
	}
	if ( m->on_floor )
	{
		m->flags |= KCC_ON_FLOOR;
	}
}

// Zones along the path, then the new state: position, flags, floor, the platform to ride and one-way shapes.
static void kcc_piece_commit( kcc_piece* m, bool last_piece )
{
	kcc_controller* c = m->c;
	kcc_move_accumulator* acc = m->acc;
	vec2s p = m->p;
	if ( kcc_zones_around( c ) )
	{
		kcc_zones_track( c, m->path.points, m->path.count, acc->travel, acc );
	}
	kcc_move_result* out = acc->out;
	if ( acc->path != NULL )
	{
		vec2s origin = c->move->origin;
		for ( int i = 0; i < m->path.count; ++i )
		{
			kcc_path_push( acc->path, kcc_bridge_offset( origin, m->path.points[i] ) );
		}
	}
	if ( out != NULL && last_piece && c->move->has_sensors )
	{
		kcc_zones_report( c, p, out );
	}
	bool truncated = c->move->region_truncated || c->move->candidate_overflow;
	if ( truncated )
	{
		m->flags |= KCC_CANDIDATES_TRUNCATED;
	}
	bool on_floor = m->on_floor;
	c->position = kcc_bridge_offset( c->move->origin, p );
	c->flags = m->flags;
	c->floor_normal = on_floor ? m->floor_normal : m->up;
	c->support_count = 0;
	if ( on_floor )
	{
		kcc_add_support( m->supports, &m->support_count, m->floor_normal );
		c->support_count = m->support_count;
		for ( int i = 0; i < m->support_count; ++i ) // at most KCC_MAX_SUPPORTS: no call
		{
			c->supports[i] = m->supports[i];
		}
	}
	acc->travel += m->travel;
	acc->flags |= m->flags & ~(uint32_t)KCC_ON_FLOOR; // what happened in any part; the floor is the last part's
	if ( out != NULL )
	{
		out->floor_normal = c->floor_normal;
		out->floor_shape = on_floor && m->floor_candidate != NULL ? m->floor_candidate->shape : NULL;
	}
	if ( last_piece )
	{
		// While the candidates are still valid: the floor (for drop-through and for riding a kinematic body next
		// move) and whether the character is clear of the one-way shape it is dropping through.
		const kcc_candidate* floor = on_floor ? m->floor_candidate : NULL;
		c->floor_shape = floor != NULL ? floor->shape : NULL;
		c->floor_one_way = floor != NULL && floor->one_way;
		kcc_platform_remember( c, p, floor );
		kcc_one_way_update( c, p );
	}
	if ( truncated && ( acc->flags & KCC_CRUSHED ) == 0 && kcc_overlaps_solid( c, &c->local_shape, p, false ) )
	{
		// Some shapes were not considered: where the move ended, it overlaps one (unless already reported).
		c->flags |= KCC_CRUSHED;
		acc->flags |= KCC_CRUSHED;
	}
}

// One sub-move, DESIGN.md's steps 2 to 6: the candidates for it are already gathered around c->position (the
// context's origin).
KCC_ALWAYS_INLINE void kcc_move_piece( kcc_controller* c, vec2s delta, kcc_move_accumulator* acc, bool last_piece )
{
	kcc_piece m;
	kcc_piece_begin( &m, c, delta, acc );
	kcc_piece_depenetrate( &m );
	kcc_piece_shape_input( &m );
	kcc_piece_slide( &m );
	kcc_piece_ground( &m );
	kcc_piece_commit( &m, last_piece );
}

// One part of a move, from the character's current position. When its query meets more shapes than the buffer
// holds, it is done as two halves, each queried where it starts (a fall onto a dense floor overflows only near the
// floor). Halving a long move about halves the shapes its region meets, and no more once the move is as short as
// the character's own region: so a part is halved only while the halvings left could bring the shapes it met
// within the buffer, and not into parts shorter than min_move (which would not be cast). Otherwise the part goes
// on with what fits and reports KCC_CANDIDATES_TRUNCATED.
static void kcc_move_part( kcc_controller* c, vec2s delta, int depth, int parent_found, bool last,
						   kcc_move_accumulator* acc )
{
	c->move->origin = c->position;
	kcc_world_gather( c, kcc_region( c, kcc_v2( 0.0f, 0.0f ), delta ) );
	float half_length = 0.5f * glms_vec2_norm( delta );
	int found = c->move->candidate_found;
	bool may_fit = (int64_t)found <= (int64_t)c->def.max_candidates << ( KCC_MAX_SPLIT_DEPTH - depth );
	// A half that met as many shapes as its whole met them around the character, not along the way: halving again
	// would not help (a character in a crowd).
	bool shrinking = depth == 0 || found < parent_found;
	if ( c->move->candidate_overflow && may_fit && shrinking && depth < KCC_MAX_SPLIT_DEPTH &&
		 half_length >= c->def.min_move && half_length > 0.0f )
	{
		vec2s half = glms_vec2_scale( delta, 0.5f );
		kcc_move_part( c, half, depth + 1, found, false, acc );
		kcc_move_part( c, half, depth + 1, found, last, acc );
		return;
	}
	kcc_move_piece( c, delta, acc, last );
}

void kcc_detect_floor( kcc_controller* c )
{
	c->move->origin = c->position;
	kcc_world_gather( c, kcc_move_region( c, kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 0.0f ) ) );
	c->placed = true;
	kcc_ground_result g = c->def.mode == KCC_MODE_GROUNDED ? kcc_ground_probe( c, kcc_v2( 0.0f, 0.0f ), 0.0f, false )
														   : ( kcc_ground_result ){ 0 };
	c->placed = false;
	c->flags = g.on_floor ? KCC_ON_FLOOR : 0u;
	c->floor_normal = g.on_floor ? g.normal : c->def.up;
	c->support_count = g.on_floor ? 1 : 0;
	c->supports[0] = c->floor_normal;
	const kcc_candidate* floor = g.on_floor ? g.floor : NULL;
	c->floor_shape = floor != NULL ? floor->shape : NULL;
	c->floor_one_way = floor != NULL && floor->one_way;
	c->drop_shape = NULL;
	kcc_one_way_update( c, kcc_v2( 0.0f, 0.0f ) );
	kcc_platform_remember( c, kcc_v2( 0.0f, 0.0f ), floor );
	c->platform_velocity = c->belt_velocity; // a body's motion is not measured yet; a belt's is known
}

// Only the header: collisions and sensors past their counts are not read.
static void kcc_clear_result( kcc_move_result* out, vec2s position, uint32_t flags, vec2s floor_normal )
{
	out->displacement = kcc_v2( 0.0f, 0.0f );
	out->floor_shape = NULL;
	out->collision_count = 0;
	out->sensor_count = 0;
	out->sensor_event_count = 0;
	out->path_count = 0;
	out->position = position;
	out->flags = flags;
	out->floor_normal = floor_normal;
}

// kcc_controller_move, carried by a conveyor belt over dt (move_and_slide's; 0: not carried). c->move->planes
// receives every surface that blocked the move. A batch move (c->batch) has its controller and space checked by the
// batch. path false: out's path is left empty (nobody reads it).
KCC_ALWAYS_INLINE kcc_status kcc_move( kcc_controller* c, vec2s delta, kcc_move_result* out, float dt, bool path )
{
	// 1. Validate (a batch did already).
	kcc_status status = c->batch != NULL ? KCC_OK : kcc_move_validate( c, delta );
	if ( status == KCC_OK && c->batch == NULL )
	{
		status = KCC_SPACE_ACQUIRE( c, "kcc_controller_move" );
	}
	if ( status != KCC_OK )
	{
		if ( out != NULL )
		{
			kcc_clear_result( out, c->position, c->flags, c->floor_normal );
		}
		return status;
	}

	vec2s start = c->position;
	kcc_move_result* path_out = path ? out : NULL;
	if ( out != NULL )
	{
		kcc_clear_result( out, start, 0, c->def.up );
		kcc_result_path_add( path_out, start );
	}
	kcc_plane_list* planes = &c->move->planes;
	planes->count = 0;
	kcc_move_accumulator acc = { out, path_out, 0.0f, 0, { { 0.0f, 0.0f } }, planes };

	// Riding a kinematic body: carried by its motion first (nothing to do in a level without moving bodies).
	c->carry = kcc_v2( 0.0f, 0.0f );
	const cpBody* carried_by = c->platform;
	if ( c->platform != NULL )
	{
		kcc_platform_carry( c, &acc );
	}
	if ( dt > 0.0f && ( c->belt_velocity.x != 0.0f || c->belt_velocity.y != 0.0f ) )
	{
		kcc_platform_belt( c, dt, &acc );
	}

	// 3. One query over the whole move, then steps 2 to 6 (kcc_move_piece); when the query holds more shapes than the
	// buffer, the move is split in halves, each with its own query, until every part fits (kcc_move_part).
	kcc_move_part( c, delta, 0, 0, true, &acc );
	c->flags |= acc.flags;
	c->wall_normal = acc.wall_normal;
	kcc_platform_velocity_update( c, carried_by );

	kcc_world_sync_body( c );
	if ( c->batch == NULL )
	{
		kcc_space_release( c );
	}
	if ( out != NULL )
	{
		out->position = c->position;
		out->displacement = glms_vec2_sub( c->position, start );
		out->flags = c->flags;
	}
	return KCC_OK;
}

kcc_status kcc_controller_move( kcc_controller* c, vec2s delta, kcc_move_result* out )
{
	if ( KCC_USABLE( c, "kcc_controller_move" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	return kcc_move( c, delta, out, 0.0f, true );
}

kcc_status kcc_controller_move_and_slide( kcc_controller* c, vec2s velocity, float dt, vec2s* out_velocity,
										  kcc_move_result* out )
{
	if ( KCC_USABLE( c, "kcc_controller_move_and_slide" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	return kcc_move_and_slide( c, velocity, dt, out_velocity, out );
}

// kcc_move_and_slide's checks of its arguments.
static kcc_status kcc_move_and_slide_check( vec2s velocity, float dt, vec2s delta )
{
	if ( kcc_is_valid_vec2( velocity ) == false || kcc_is_valid_float( dt ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( dt < 0.0f )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	return kcc_is_valid_vec2( delta ) ? KCC_OK : KCC_ERROR_TOO_LARGE;
}

kcc_status kcc_move_and_slide( kcc_controller* c, vec2s velocity, float dt, vec2s* out_velocity, kcc_move_result* out )
{
	vec2s delta = glms_vec2_scale( velocity, dt );
	kcc_move_result local;
	kcc_move_result* result = out != NULL ? out : &local;
	// A batch checked every move before any moved, and runs a paused frame as single calls.
	if ( c->batch == NULL )
	{
		kcc_status status = kcc_move_and_slide_check( velocity, dt, delta );
		if ( status != KCC_OK )
		{
			kcc_clear_result( result, c->position, c->flags, c->floor_normal );
			if ( out_velocity != NULL )
			{
				*out_velocity = kcc_is_valid_vec2( velocity ) ? velocity : kcc_v2( 0.0f, 0.0f );
			}
			return status;
		}
		if ( dt == 0.0f )
		{
			// A paused frame: nothing moves, and the next frame's platform carry still covers the pause.
			kcc_clear_result( result, c->position, c->flags, c->floor_normal );
			result->floor_shape = ( c->flags & KCC_ON_FLOOR ) ? c->floor_shape : NULL;
			if ( out_velocity != NULL )
			{
				*out_velocity = velocity;
			}
			return KCC_OK;
		}
	}
	float previous_dt = c->last_dt;
	c->last_dt = dt;
	const cpBody* start_platform = c->platform;
	vec2s start_belt = c->belt_velocity;
	// The clip reads every surface of the move (its context's planes), not only those the result has room for.
	kcc_status status = kcc_move( c, delta, result, dt, out != NULL );
	if ( status != KCC_OK )
	{
		c->last_dt = previous_dt;
		if ( out_velocity != NULL )
		{
			*out_velocity = velocity;
		}
		return status;
	}
	c->real_velocity = glms_vec2_scale( result->displacement, 1.0f / dt );
	if ( out_velocity != NULL )
	{
		bool on_floor = ( result->flags & KCC_ON_FLOOR ) != 0;
		vec2s v = velocity; // what the clip keeps of a move that met no surface and ended in the air (many do)
		if ( on_floor || c->move->planes.count > 0 )
		{
			kcc_slide_params params = kcc_slide_params_of( c );
			v = kcc_clip_velocity( &params, velocity, &c->move->planes, on_floor, result->floor_normal );
		}
		// Left a moving platform (jumped, walked off): its velocity at the contact is handed on; so is a belt's when
		// leaving it into the air (walking from belt tile to belt tile changes the floor shape but keeps the belt).
		vec2s platform = { { 0.0f, 0.0f } };
		bool left_platform = start_platform != NULL && c->platform != start_platform;
		bool left_belt = ( start_belt.x != 0.0f || start_belt.y != 0.0f ) && ( result->flags & KCC_ON_FLOOR ) == 0;
		if ( left_platform )
		{
			platform = glms_vec2_scale( c->carry, 1.0f / dt );
		}
		if ( left_belt )
		{
			platform = glms_vec2_add( platform, start_belt );
		}
		if ( left_platform || left_belt )
		{
			vec2s up = c->def.up;
			if ( c->def.platform_on_leave == KCC_PLATFORM_LEAVE_ADD_VELOCITY )
			{
				v = glms_vec2_add( v, platform );
			}
			else if ( c->def.platform_on_leave == KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY )
			{
				v = glms_vec2_muladds( up, kcc_maxf( glms_vec2_dot( platform, up ), 0.0f ), v );
			}
		}
		*out_velocity = v;
	}
	if ( c->batch != NULL )
	{
		// A batch applies the impulses at its end, in array order: a move never writes a dynamic body (its velocity
		// is read only by later impulses, and waking it changes the space).
		c->batch_velocity = velocity;
		c->batch_collision_count = c->def.mass > 0.0f ? result->collision_count : 0;
		if ( c->batch_collision_count > 0 ) // most moves touch nothing
		{
			size_t size = (size_t)c->batch_collision_count * sizeof( kcc_collision );
			memcpy( c->batch_collisions, result->collisions, size );
		}
		return KCC_OK;
	}
	kcc_push_dynamic( c, velocity, result->collisions, result->collision_count );
	return KCC_OK;
}

vec2s kcc_controller_get_platform_velocity( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_platform_velocity" ) ? c->platform_velocity : kcc_v2( 0.0f, 0.0f );
}

vec2s kcc_controller_get_real_velocity( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_real_velocity" ) ? c->real_velocity : kcc_v2( 0.0f, 0.0f );
}
