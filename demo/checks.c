// SPDX-License-Identifier: MIT
// What the tour checks, measured from the moves' results every frame: the features the player went through, and
// the quality of every character's moves (never stuck, never crushed, never overlapping a solid).
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// An overlap deeper than this is a failure of the controller (DESIGN.md property 1).
#define DEMO_OVERLAP_TOLERANCE 1.0e-3f

typedef struct shape_cache
{
	demo_game* g;
	int capacity;
} shape_cache;

static void cache_shape( const cpShape* shape, const kcc_shape* world, void* context )
{
	shape_cache* c = context;
	demo_game* g = c->g;
	cpBitmask categories = cpShapeGetFilter( shape ).categories;
	bool character = ( categories & DEMO_CHARACTER_CATEGORY ) != 0;
	if ( character || kcc_shape_is_valid( world ) == false || g->checks.shape_count == c->capacity )
	{
		return;
	}
	cpBody* body = cpShapeGetBody( shape );
	demo_world_shape* s = g->checks.shapes + g->checks.shape_count++;
	s->shape = shape;
	s->world = *world;
	s->bounds = kcc_shape_bounds( world );
	s->position = cpBodyGetPosition( body );
	s->angle = cpBodyGetAngle( body );
	s->moves = cpBodyGetType( body ) == CP_BODY_TYPE_KINEMATIC;
	s->one_way = ( categories & g->level_def.one_way_category ) != 0;
	s->solid = cpShapeGetSensor( shape ) == cpFalse && s->one_way == false;
}

bool demo_checks_init( demo_game* g )
{
	// What the checks follow: the crates (how far they were pushed) and the crouch tunnel (gone through).
	for ( int i = 0; i < kcc_level_object_count( g->level ); ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( g->level, i );
		if ( strcmp( o->name, "tunnel roof" ) == 0 )
		{
			g->checks.tunnel = o->bounds;
		}
		else if ( o->kind == KCC_LEVEL_CRATE && g->checks.crate_count < DEMO_MAX_CRATES )
		{
			g->checks.crates[g->checks.crate_count] = o->body;
			g->checks.crate_starts[g->checks.crate_count++] = cpBodyGetPosition( o->body );
		}
	}
	// The level's shapes as kcc_shapes, once: the checks move those on kinematic bodies with their bodies.
	int capacity = kcc_level_get_info( g->level ).shape_count + 16;
	g->checks.shapes = malloc( sizeof( demo_world_shape ) * (size_t)capacity );
	if ( g->checks.shapes == NULL )
	{
		return false;
	}
	shape_cache c = { g, capacity };
	kcc_space_each_shape( g->space, cache_shape, &c );
	return true;
}

// A cached shape where its body is now.
static kcc_shape current_shape( const demo_world_shape* s )
{
	if ( s->moves == false )
	{
		return s->world;
	}
	const cpBody* body = cpShapeGetBody( s->shape );
	cpVect p = cpBodyGetPosition( body );
	kcc_shape local = kcc_shape_translate( &s->world, kcc_v2( (float)-s->position.x, (float)-s->position.y ) );
	float turn = (float)( cpBodyGetAngle( body ) - s->angle );
	return kcc_shape_transform( &local, kcc_v2( (float)p.x, (float)p.y ), turn );
}

// The deepest overlap of a character with anything solid: the level's shapes (one-way shapes excepted: characters
// pass through them) and the other characters.
static float character_overlap( const demo_game* g, kcc_controller* controller )
{
	kcc_controller_state state = kcc_controller_get_state( controller );
	kcc_shape shape = kcc_shape_translate( &state.shape, state.position );
	kcc_aabb bounds = kcc_shape_bounds( &shape );
	float worst = 0.0f;
	for ( int i = 0; i < g->checks.shape_count; ++i )
	{
		const demo_world_shape* s = g->checks.shapes + i;
		// Most shapes never move: their cached bounds rule them out without building the shape.
		if ( s->solid == false || ( s->moves == false && kcc_aabb_overlaps_aabb( s->bounds, bounds ) == false ) )
		{
			continue;
		}
		kcc_shape other = current_shape( s );
		if ( kcc_aabb_overlaps_aabb( kcc_shape_bounds( &other ), bounds ) )
		{
			kcc_penetration_output pen = kcc_penetration( &shape, &other );
			worst = pen.overlapping && pen.depth > worst ? pen.depth : worst;
		}
	}
	for ( int i = -1; i < g->enemy_count; ++i )
	{
		kcc_controller* other = i < 0 ? g->player.controller : g->enemies[i].controller;
		if ( other == NULL || other == controller )
		{
			continue;
		}
		kcc_controller_state o = kcc_controller_get_state( other );
		kcc_shape other_shape = kcc_shape_translate( &o.shape, o.position );
		kcc_penetration_output pen = kcc_penetration( &shape, &other_shape );
		worst = pen.overlapping && pen.depth > worst ? pen.depth : worst;
	}
	return worst;
}

// Inside a one-way shape (passing through it).
static bool inside_one_way( const demo_game* g, const kcc_shape* shape )
{
	for ( int i = 0; i < g->checks.shape_count; ++i )
	{
		const demo_world_shape* s = g->checks.shapes + i;
		if ( s->one_way )
		{
			kcc_shape other = current_shape( s );
			if ( kcc_overlap( shape, &other ) )
			{
				return true;
			}
		}
	}
	return false;
}

// Wanted to move, did not, and nothing it met explains it.
static bool is_stuck( const kcc_move_result* r, vec2s wanted, bool horizontal_only )
{
	vec2s w = horizontal_only ? kcc_v2( wanted.x, 0.0f ) : wanted;
	vec2s d = horizontal_only ? kcc_v2( r->displacement.x, 0.0f ) : r->displacement;
	uint32_t blocked = KCC_ON_WALL | KCC_ON_CEILING | KCC_PUSHED | KCC_CRUSHED;
	return glms_vec2_norm( w ) > 1.0e-3f && glms_vec2_norm( d ) < 1.0e-5f && ( r->flags & blocked ) == 0;
}

static float angle_from_up( vec2s n )
{
	float c = n.y > 1.0f ? 1.0f : ( n.y < -1.0f ? -1.0f : n.y );
	return acosf( c ) / DEMO_DEGREES;
}

static void measure_player( demo_game* g, vec2s previous )
{
	demo_player* p = &g->player;
	demo_stats* s = &g->stats;
	const kcc_move_result* r = &p->result;
	bool on_floor = ( r->flags & KCC_ON_FLOOR ) != 0;
	const cpShape* floor = on_floor ? r->floor_shape : NULL;
	const kcc_level_object* floor_object = floor != NULL ? kcc_level_object_of_shape( g->level, floor ) : NULL;
	kcc_shape shape = demo_player_shape( g );
	kcc_aabb bounds = kcc_shape_bounds( &shape );
	if ( p->top_down )
	{
		s->top_down_travel += glms_vec2_norm( r->displacement );
		s->top_down_wall = s->top_down_wall || ( r->flags & KCC_ON_WALL ) != 0;
		s->visited[FEATURE_TOP_DOWN] = s->top_down_travel >= 10.0f && s->top_down_wall;
		return;
	}
	// Tiles: seams walked over on a floor of tiles, and any contact with a tile's side at floor level (a snag).
	bool on_tiles = floor != NULL && floor_object == NULL && demo_shape_name( g, floor ) != NULL &&
					strcmp( demo_shape_name( g, floor ), "ground" ) == 0;
	if ( on_tiles && floorf( previous.x ) != floorf( r->position.x ) )
	{
		s->seams_crossed += 1;
	}
	for ( int i = 0; i < r->collision_count; ++i )
	{
		const kcc_collision* c = r->collisions + i;
		float angle = angle_from_up( c->normal );
		bool tile = kcc_level_object_of_shape( g->level, c->shape ) == NULL && c->shape != g->swing_shape &&
					demo_shape_name( g, c->shape ) != NULL && strcmp( demo_shape_name( g, c->shape ), "ground" ) == 0;
		if ( on_tiles && tile && ( c->flags & KCC_ON_FLOOR ) == 0 && c->point.y < bounds.min.y + 0.05f )
		{
			s->seam_snags += 1;
		}
		if ( ( c->flags & KCC_ON_WALL ) && angle > 59.0f && angle < 61.0f )
		{
			s->visited[FEATURE_SLOPE_60] = true;
		}
		if ( ( c->flags & KCC_ON_WALL ) && fabsf( c->normal.y ) < 1.0e-3f )
		{
			s->visited[FEATURE_WALL] = true;
		}
	}
	s->visited[FEATURE_TILES] = s->seams_crossed >= 10 && s->seam_snags == 0;
	if ( on_floor )
	{
		float angle = angle_from_up( r->floor_normal );
		s->visited[FEATURE_SLOPE_30] = s->visited[FEATURE_SLOPE_30] || ( angle > 29.0f && angle < 31.0f );
		s->visited[FEATURE_SLOPE_45] = s->visited[FEATURE_SLOPE_45] || ( angle > 44.0f && angle < 46.0f );
		s->shape_used[p->shape_kind] = true;
	}
	if ( r->flags & KCC_ON_CEILING )
	{
		s->visited[FEATURE_CEILING] = true;
	}
	if ( r->flags & KCC_STEPPED )
	{
		s->steps_climbed += 1;
	}
	s->visited[FEATURE_STAIRS] = s->steps_climbed >= 3;
	// A conveyor belt: standing still on it (no walk of its own), the player moved by the belt's surface velocity
	// over the step, and the controller reported that velocity as its platform velocity.
	cpVect belt = floor != NULL ? cpShapeGetSurfaceVelocity( floor ) : cpvzero;
	vec2s carried_by = kcc_controller_get_platform_velocity( p->controller );
	if ( belt.x != 0.0 && p->wanted.x == 0.0f && fabsf( r->displacement.x - (float)belt.x * DEMO_DT ) < 1.0e-4f &&
		 fabsf( carried_by.x - (float)belt.x ) < 1.0e-4f )
	{
		s->belt_frames += 1;
		s->belt_travel += r->displacement.x;
		s->belt_speed = carried_by.x;
	}
	s->visited[FEATURE_BELT] = s->belt_frames >= 30 && s->belt_travel >= 1.0f;
	s->visited[FEATURE_SPEED_BUMPS] = s->bump_begins == 7;
	// Crates: pushed, and one of them moved at least 2 units.
	if ( r->flags & KCC_PUSHED )
	{
		s->pushed_frames += 1;
	}
	for ( int i = 0; i < g->checks.crate_count; ++i )
	{
		float travel = (float)cpvdist( cpBodyGetPosition( g->checks.crates[i] ), g->checks.crate_starts[i] );
		s->crate_travel = travel > s->crate_travel ? travel : s->crate_travel;
	}
	s->visited[FEATURE_CRATES] = s->pushed_frames > 0 && s->crate_travel >= 2.0f;
	// Platforms: ridden long enough, the lift while going up, the swing while it turned.
	const kcc_level_platform* ferry = kcc_level_find_platform( g->level, "ferry" );
	const kcc_level_platform* lift = kcc_level_find_platform( g->level, "lift" );
	const cpBody* floor_body = floor != NULL ? cpShapeGetBody( floor ) : NULL;
	if ( ferry != NULL && floor_body == ferry->body )
	{
		s->ferry_frames += 1;
	}
	if ( lift != NULL && floor_body == lift->body && kcc_level_get_platform_velocity( g->level, lift ).y > 0.5f )
	{
		s->lift_frames += 1;
	}
	if ( floor != NULL && floor == g->swing_shape )
	{
		float angle = (float)cpBodyGetAngle( g->swing_body );
		if ( s->swing_frames == 0 )
		{
			g->checks.swing_min = g->checks.swing_max = angle;
		}
		g->checks.swing_min = angle < g->checks.swing_min ? angle : g->checks.swing_min;
		g->checks.swing_max = angle > g->checks.swing_max ? angle : g->checks.swing_max;
		s->swing_angle_seen = g->checks.swing_max - g->checks.swing_min;
		s->swing_frames += 1;
	}
	s->visited[FEATURE_MOVING_PLATFORM] = s->ferry_frames >= 60;
	s->visited[FEATURE_LIFT] = s->lift_frames >= 30;
	s->visited[FEATURE_SWING] = s->swing_frames >= 30 && s->swing_angle_seen >= 5.0f * DEMO_DEGREES;
	// One-way: inside one while going up (jumping through it from below), standing on one, dropping through one.
	bool on_one_way = floor != NULL && ( cpShapeGetFilter( floor ).categories & g->level_def.one_way_category ) != 0;
	if ( on_one_way )
	{
		s->visited[FEATURE_ONE_WAY_LAND] = true;
		s->visited[FEATURE_ONE_WAY_FROM_BELOW] = s->visited[FEATURE_ONE_WAY_FROM_BELOW] || s->below_one_way;
		s->below_one_way = false;
	}
	if ( p->drop_timer > 0 )
	{
		p->drop_timer += 1;
		if ( bounds.max.y < p->drop_top )
		{
			s->drop_throughs += 1;
			s->visited[FEATURE_DROP_THROUGH] = true;
			p->drop_timer = 0;
		}
		else if ( p->drop_timer > 120 )
		{
			p->drop_timer = 0;
		}
	}
	// Enemies: stood on.
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		kcc_controller* enemy = g->enemies[i].controller;
		if ( floor != NULL && enemy != NULL && floor == kcc_controller_get_shape( enemy ) )
		{
			s->enemy_ride_frames += 1;
		}
	}
	s->visited[FEATURE_STAND_ON_ENEMY] = s->enemy_ride_frames >= 20;
	// The tunnel: in it low, then out the far side.
	vec2s at = r->position;
	if ( at.x > g->checks.tunnel.min.x && at.x < g->checks.tunnel.max.x && bounds.max.y < g->checks.tunnel.min.y )
	{
		g->checks.in_tunnel = true;
	}
	if ( g->checks.in_tunnel && at.x > g->checks.tunnel.max.x + 0.3f )
	{
		s->visited[FEATURE_TUNNEL] = true;
	}
	s->visited[FEATURE_CROUCH_BLOCKED] = s->blocked_stand_ups > 0;
}

void demo_checks_measure( demo_game* g, vec2s previous )
{
	demo_stats* s = &g->stats;
	demo_player* p = &g->player;
	s->frames = g->frame;
	measure_player( g, previous );
	if ( p->top_down == false && p->velocity.y > 0.0f )
	{
		kcc_shape shape = demo_player_shape( g );
		s->below_one_way = s->below_one_way || inside_one_way( g, &shape );
	}
	s->visited[FEATURE_FAN] = s->fan_hits > 0;
	s->visited[FEATURE_DASH] = s->dash_hits > 0;
	s->visited[FEATURE_SLAM] = s->slam_hits > 0;
	s->visited[FEATURE_SHAPES] = s->shape_used[DEMO_CIRCLE] && s->shape_used[DEMO_CAPSULE] && s->shape_used[DEMO_BOX];

	// Quality, for every character: no overlap, never stuck, never crushed.
	float worst = character_overlap( g, p->controller );
	bool stuck = is_stuck( &p->result, p->wanted, p->top_down == false );
	bool crushed = ( p->result.flags & KCC_CRUSHED ) != 0;
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		demo_enemy* e = g->enemies + i;
		if ( e->controller == NULL )
		{
			continue;
		}
		float depth = character_overlap( g, e->controller );
		worst = depth > worst ? depth : worst;
		stuck = stuck || is_stuck( &e->result, e->wanted, e->kind == DEMO_WALKER );
		crushed = crushed || ( e->result.flags & KCC_CRUSHED ) != 0;
	}
	s->worst_overlap = worst > s->worst_overlap ? worst : s->worst_overlap;
	s->overlap_frames += worst > DEMO_OVERLAP_TOLERANCE ? 1 : 0;
	s->stuck_frames += stuck ? 1 : 0;
	s->crushed_frames += crushed ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Features, for the summary and the legend

const char* demo_feature_name( demo_feature f )
{
	static const char* names[FEATURE_COUNT] = {
		"tile floor with seams",
		"30 degree slope",
		"45 degree slope",
		"60 degree slope (too steep)",
		"stairs",
		"conveyor belt",
		"wall",
		"ceiling",
		"checkpoint",
		"speed bumps",
		"slow zone",
		"pushable crates",
		"moving platform",
		"lift",
		"one-way: land on it",
		"one-way: drop through",
		"one-way: jump up through",
		"swinging platform",
		"crouch: stand up blocked",
		"crouch tunnel",
		"fan attack (sector)",
		"dash attack (capsule)",
		"ground slam (2.5D volume)",
		"stand on an enemy",
		"top-down room (FLOATING)",
		"circle, capsule and rounded box",
	};
	return f >= 0 && f < FEATURE_COUNT ? names[f] : "?";
}

void demo_feature_detail( const demo_game* g, demo_feature f, char* out, size_t size )
{
	const demo_stats* s = &g->stats;
	switch ( f )
	{
		case FEATURE_TILES:
			snprintf( out, size, "%d seams crossed, %d snags", s->seams_crossed, s->seam_snags );
			break;
		case FEATURE_STAIRS:
			snprintf( out, size, "%d steps climbed", s->steps_climbed );
			break;
		case FEATURE_BELT:
			snprintf( out, size, "%d frames carried standing still, %.2f units, platform velocity %.2f u/s",
					  s->belt_frames, (double)s->belt_travel, (double)s->belt_speed );
			break;
		case FEATURE_SPEED_BUMPS:
		{
			int bumps = ( s->bump_begins & 1 ) + ( ( s->bump_begins >> 1 ) & 1 ) + ( ( s->bump_begins >> 2 ) & 1 );
			snprintf( out, size, "bumps entered: %d of 3", bumps );
		}
			break;
		case FEATURE_CRATES:
			snprintf( out, size, "%d frames pushing, a crate moved %.2f", s->pushed_frames, (double)s->crate_travel );
			break;
		case FEATURE_MOVING_PLATFORM:
			snprintf( out, size, "%d frames on the ferry", s->ferry_frames );
			break;
		case FEATURE_LIFT:
			snprintf( out, size, "%d frames going up", s->lift_frames );
			break;
		case FEATURE_SWING:
			snprintf( out, size, "%d frames, turned %.1f degrees", s->swing_frames,
					  (double)( s->swing_angle_seen / DEMO_DEGREES ) );
			break;
		case FEATURE_DROP_THROUGH:
			snprintf( out, size, "%d drops", s->drop_throughs );
			break;
		case FEATURE_CROUCH_BLOCKED:
			snprintf( out, size, "%d blocked stand-ups", s->blocked_stand_ups );
			break;
		case FEATURE_FAN:
			snprintf( out, size, "%d hits", s->fan_hits );
			break;
		case FEATURE_DASH:
			snprintf( out, size, "%d hits", s->dash_hits );
			break;
		case FEATURE_SLAM:
			snprintf( out, size, "%d hits, %d passed under by height", s->slam_hits, s->slam_height_misses );
			break;
		case FEATURE_STAND_ON_ENEMY:
			snprintf( out, size, "%d frames", s->enemy_ride_frames );
			break;
		case FEATURE_TOP_DOWN:
			snprintf( out, size, "moved %.1f, walls %s", (double)s->top_down_travel,
					  s->top_down_wall ? "met" : "not met" );
			break;
		default:
			out[0] = '\0';
			break;
	}
}
