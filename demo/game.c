// SPDX-License-Identifier: MIT
// The demo's game rules on kcc2d: the level from Tiled, the player (platformer or top-down), enemies, the swing,
// zones, attacks, and the measurements the tour checks (features visited, stuck frames, overlaps).
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every player shape has its bottom this far below the position, standing or crouched: crouching and switching
// shapes keep the feet where they are.
#define DEMO_FOOT 0.6f
#define DEMO_MAX_FALL_SPEED 25.0f
#define DEMO_AIR_ACCELERATION 40.0f
#define DEMO_COYOTE_FRAMES 6
#define DEMO_WALKER_SPEED 2.0f
#define DEMO_SLIME_SPEED 1.5f
#define DEMO_FLASH_FRAMES 24

// ---------------------------------------------------------------------------------------------------------------
// Helpers

static float prop_float( const kcc_level_object* o, const char* name, float fallback )
{
	const kcc_level_property* p = kcc_level_get_object_property( o, name );
	return p != NULL && ( p->type == KCC_PROPERTY_FLOAT || p->type == KCC_PROPERTY_INT ) ? (float)p->number : fallback;
}

static const char* prop_string( const kcc_level_object* o, const char* name, const char* fallback )
{
	const kcc_level_property* p = kcc_level_get_object_property( o, name );
	return p != NULL && p->type == KCC_PROPERTY_STRING ? p->string : fallback;
}

static bool prop_bool( const kcc_level_object* o, const char* name )
{
	const kcc_level_property* p = kcc_level_get_object_property( o, name );
	return p != NULL && p->type == KCC_PROPERTY_BOOL && p->boolean;
}

static vec2s unit_or( vec2s v, vec2s fallback )
{
	float length = glms_vec2_norm( v );
	return length > 1.0e-6f ? glms_vec2_scale( v, 1.0f / length ) : fallback;
}

static void demo_log( demo_game* g, const char* format, ... )
{
	if ( g->log_count == DEMO_LOG_SIZE )
	{
		memmove( g->log[0], g->log[1], sizeof( g->log[0] ) * ( DEMO_LOG_SIZE - 1 ) );
		g->log_count -= 1;
	}
	char* line = g->log[g->log_count++];
	int n = snprintf( line, sizeof( g->log[0] ), "%5d  ", g->frame );
	va_list args;
	va_start( args, format );
	vsnprintf( line + n, sizeof( g->log[0] ) - (size_t)n, format, args );
	va_end( args );
}

static void demo_message( demo_game* g, const char* text )
{
	snprintf( g->message, sizeof( g->message ), "%s", text );
	g->message_timer = 90;
}

const char* demo_shape_kind_name( demo_shape_kind k )
{
	static const char* names[DEMO_SHAPE_COUNT] = { "circle", "capsule", "rounded box" };
	return k >= 0 && k < DEMO_SHAPE_COUNT ? names[k] : "?";
}

// The player's shapes, local to its position, all with their bottom DEMO_FOOT below it.
static kcc_shape player_shape( demo_shape_kind k, bool crouched )
{
	switch ( k )
	{
		case DEMO_CIRCLE:
			return crouched ? kcc_make_circle( kcc_v2( 0.0f, -0.3f ), 0.3f )
							: kcc_make_circle( kcc_v2( 0.0f, -0.15f ), 0.45f );
		case DEMO_BOX:
		{
			kcc_shape box = kcc_make_box( kcc_v2( 0.3f, crouched ? 0.25f : 0.5f ), 0.1f );
			return crouched ? kcc_shape_translate( &box, kcc_v2( 0.0f, -0.25f ) ) : box;
		}
		default:
			return kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, crouched ? -0.2f : 0.3f ), 0.3f );
	}
}

static kcc_controller_def character_def( const demo_game* g, kcc_shape shape, vec2s position, bool floating )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = shape;
	def.position = position;
	def.max_floor_angle = DEMO_MAX_FLOOR_ANGLE;
	def.mode = floating ? KCC_MODE_FLOATING : KCC_MODE_GROUNDED;
	def.step_height = floating ? 0.0f : 0.3f;
	def.snap_distance = floating ? 0.0f : 0.2f;
	def.step_min_width = 0.2f;
	def.corner_correction = 0.1f;
	cpBitmask blockers = g->level_def.solid_category | g->level_def.one_way_category | g->level_def.pushable_category |
						 DEMO_CHARACTER_CATEGORY;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, DEMO_CHARACTER_CATEGORY, blockers );
	def.one_way_categories = g->level_def.one_way_category;
	def.sensor_mask = g->level_def.zone_category;
	return def;
}

kcc_shape demo_player_shape( const demo_game* g )
{
	kcc_controller_state state = kcc_controller_get_state( g->player.controller );
	return kcc_shape_translate( &state.shape, state.position );
}

vec2s demo_player_position( const demo_game* g )
{
	return kcc_controller_get_position( g->player.controller );
}

vec2s demo_player_center( const demo_game* g )
{
	kcc_shape s = demo_player_shape( g );
	kcc_aabb b = kcc_shape_bounds( &s );
	return kcc_v2( 0.5f * ( b.min.x + b.max.x ), 0.5f * ( b.min.y + b.max.y ) );
}

kcc_shape demo_enemy_world_shape( const demo_enemy* e )
{
	return kcc_shape_translate( &e->shape, e->position );
}

// The circle an attack tests an enemy as (seed 000: treat every target as a circle).
static kcc_circle enemy_circle( const demo_enemy* e )
{
	kcc_shape s = demo_enemy_world_shape( e );
	kcc_aabb b = kcc_shape_bounds( &s );
	float w = b.max.x - b.min.x, h = b.max.y - b.min.y;
	kcc_circle c = { kcc_v2( 0.5f * ( b.min.x + b.max.x ), 0.5f * ( b.min.y + b.max.y ) ), 0.5f * ( w > h ? w : h ) };
	return c;
}

const demo_enemy* demo_find_enemy( const demo_game* g, const char* name )
{
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		if ( strcmp( g->enemies[i].name, name ) == 0 )
		{
			return g->enemies + i;
		}
	}
	return NULL;
}

const char* demo_shape_name( const demo_game* g, const cpShape* shape )
{
	if ( shape == NULL )
	{
		return NULL;
	}
	if ( g->player.controller != NULL && shape == kcc_controller_get_shape( g->player.controller ) )
	{
		return "player";
	}
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		if ( g->enemies[i].controller != NULL && shape == kcc_controller_get_shape( g->enemies[i].controller ) )
		{
			return g->enemies[i].name;
		}
	}
	if ( shape == g->swing_shape )
	{
		return "swing";
	}
	return kcc_level_get_shape_name( g->level, shape );
}

static const kcc_level_object* object_by_id( const kcc_level* level, int id )
{
	for ( int i = 0; i < kcc_level_object_count( level ); ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( level, i );
		if ( o->id == id )
		{
			return o;
		}
	}
	return NULL;
}

// ---------------------------------------------------------------------------------------------------------------
// Setup

static kcc_controller* create_controller( demo_game* g, const kcc_controller_def* def, const char* who )
{
	kcc_controller* c = kcc_controller_create( g->space, def );
	if ( c == NULL )
	{
		const char* problem = kcc_controller_def_problem( def );
		fprintf( stderr, "demo: %s: controller refused: %s\n", who, problem != NULL ? problem : "unknown" );
	}
	return c;
}

static bool spawn_player( demo_game* g, vec2s feet, bool top_down )
{
	demo_player* p = &g->player;
	kcc_controller_destroy( p->controller );
	p->crouched = false;
	p->blocked_stand = false;
	p->top_down = top_down;
	p->velocity = kcc_v2( 0.0f, 0.0f );
	p->dash_frames = 0;
	p->diving = false;
	memset( &p->result, 0, sizeof( p->result ) );
	vec2s position = kcc_v2( feet.x, feet.y + DEMO_FOOT + 0.01f );
	kcc_controller_def def = character_def( g, player_shape( p->shape_kind, false ), position, top_down );
	def.pushable_categories = g->level_def.pushable_category;
	p->controller = create_controller( g, &def, "player" );
	p->result.position = position;
	return p->controller != NULL;
}

static bool add_enemy( demo_game* g, const kcc_level_object* o, demo_enemy_kind kind )
{
	if ( g->enemy_count == DEMO_MAX_ENEMIES )
	{
		fprintf( stderr, "demo: more than %d enemies: '%s' left out\n", DEMO_MAX_ENEMIES, o->name );
		return true;
	}
	demo_enemy* e = g->enemies + g->enemy_count;
	memset( e, 0, sizeof( *e ) );
	e->name = o->name;
	e->kind = kind;
	e->phase = 2.1f * (float)g->enemy_count;
	if ( kind == DEMO_BAT )
	{
		e->shape = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.35f );
		e->orbit_center = o->position;
		e->orbit_radius = 1.5f;
		e->position = glms_vec2_add( o->position, kcc_v2( e->orbit_radius, 0.0f ) );
		e->z_min = prop_float( o, "z", 1.6f );
		e->z_max = e->z_min + 0.5f;
		g->enemy_count += 1;
		return true;
	}
	kcc_controller_def def;
	if ( kind == DEMO_SLIME )
	{
		e->shape = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.45f );
		e->position = o->position;
		e->z_min = 0.0f;
		e->z_max = 0.6f;
		def = character_def( g, e->shape, e->position, true );
	}
	else
	{
		const char* shape = prop_string( o, "shape", "capsule" );
		if ( strcmp( shape, "box" ) == 0 )
		{
			e->shape = kcc_make_box( kcc_v2( 0.35f, 0.35f ), 0.08f );
		}
		else if ( strcmp( shape, "circle" ) == 0 )
		{
			e->shape = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.4f );
		}
		else
		{
			e->shape = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
		}
		kcc_aabb local = kcc_shape_bounds( &e->shape );
		e->position = kcc_v2( 0.5f * ( o->bounds.min.x + o->bounds.max.x ), o->bounds.min.y - local.min.y + 0.01f );
		e->min_x = o->bounds.min.x - local.min.x;
		e->max_x = o->bounds.max.x - local.max.x;
		e->velocity.x = DEMO_WALKER_SPEED;
		// Side-view characters all stand in one depth lane: the slam's volume spans it.
		e->z_min = -0.3f;
		e->z_max = 0.3f;
		def = character_def( g, e->shape, e->position, false );
	}
	def.sensor_mask = 0; // zones are the player's business
	e->controller = create_controller( g, &def, o->name );
	e->result.position = e->position;
	g->enemy_count += 1;
	return e->controller != NULL;
}

static void add_swing( demo_game* g, const kcc_level_object* o )
{
	vec2s size = glms_vec2_sub( o->bounds.max, o->bounds.min );
	vec2s pivot = glms_vec2_scale( glms_vec2_add( o->bounds.min, o->bounds.max ), 0.5f );
	g->swing_amplitude = prop_float( o, "amplitude", 15.0f ) * DEMO_DEGREES;
	g->swing_period = prop_float( o, "period", 3.0f );
	g->swing_body = cpSpaceAddBody( g->space, cpBodyNewKinematic() );
	cpBodySetPosition( g->swing_body, cpv( pivot.x, pivot.y ) );
	g->swing_shape = cpSpaceAddShape( g->space, cpBoxShapeNew( g->swing_body, size.x, size.y, 0.0 ) );
	cpShapeSetFilter( g->swing_shape, cpShapeFilterNew( CP_NO_GROUP, g->level_def.solid_category, CP_ALL_CATEGORIES ) );
	kcc_space_reindex_body( g->space, g->swing_body );
}

bool demo_game_init( demo_game* g, const char* map_path )
{
	memset( g, 0, sizeof( *g ) );
	g->space = cpSpaceNew();
	cpSpaceUseSpatialHash( g->space, 2.0, 4096 );
	g->level_def = kcc_default_level_def();
	g->level_def.merge_tiles = false; // every tile its own box: the seams are there to show that nothing snags
	kcc_level_error error;
	if ( kcc_level_load_file( g->space, map_path, &g->level_def, &g->level, &error ) != KCC_LEVEL_OK )
	{
		fprintf( stderr, "demo: %s\n", error.message );
		return false;
	}
	cpSpaceUseSpatialHash( g->space, 2.0, 4 * kcc_level_get_info( g->level ).shape_count );
	g->size = kcc_level_get_size( g->level );
	bool ok = true;
	bool belts_set = false;
	for ( int i = 0; i < kcc_level_object_count( g->level ); ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( g->level, i );
		if ( strcmp( o->class_name, "enemy" ) == 0 )
		{
			ok = ok && add_enemy( g, o, DEMO_WALKER );
		}
		else if ( strcmp( o->class_name, "slime" ) == 0 )
		{
			ok = ok && add_enemy( g, o, DEMO_SLIME );
		}
		else if ( strcmp( o->class_name, "bat" ) == 0 )
		{
			ok = ok && add_enemy( g, o, DEMO_BAT );
		}
		else if ( strcmp( o->class_name, "swing" ) == 0 )
		{
			add_swing( g, o );
		}
		else if ( strcmp( o->class_name, "room" ) == 0 )
		{
			g->room = o->bounds;
		}
		// A conveyor belt: a solid with a "belt" property, its speed along x (u/s, positive to the right), which the
		// controller carries a standing character at (the game look draws any shape with a surface velocity as one).
		float belt = prop_float( o, "belt", 0.0f );
		for ( int k = 0; belt != 0.0f && k < o->shape_count; ++k )
		{
			cpShapeSetSurfaceVelocity( o->shapes[k], cpv( belt, 0.0 ) );
			belts_set = true;
		}
	}
	if ( belts_set )
	{
		kcc_space_static_changed( g->space ); // the controllers' static index reads the belts' surface velocity
	}
	const kcc_level_object* start = kcc_level_find( g->level, KCC_LEVEL_SPAWN, "start" );
	if ( start == NULL )
	{
		fprintf( stderr, "demo: %s has no spawn object named 'start'\n", map_path );
		return false;
	}
	g->player.shape_kind = DEMO_CAPSULE;
	g->player.facing = 1.0f;
	g->player.speed_scale = 1.0f;
	g->player.respawn = start->position;
	return ok && demo_checks_init( g ) && spawn_player( g, start->position, false );
}

void demo_game_shutdown( demo_game* g )
{
	kcc_controller_destroy( g->player.controller );
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		kcc_controller_destroy( g->enemies[i].controller );
	}
	if ( g->swing_body != NULL )
	{
		cpSpaceRemoveShape( g->space, g->swing_shape );
		cpSpaceRemoveBody( g->space, g->swing_body );
		cpShapeFree( g->swing_shape );
		cpBodyFree( g->swing_body );
	}
	kcc_level_destroy( g->level );
	free( g->checks.shapes );
	if ( g->space != NULL )
	{
		cpSpaceFree( g->space );
	}
	memset( g, 0, sizeof( *g ) );
}

// ---------------------------------------------------------------------------------------------------------------
// Attacks: the seeds' hit tests against the enemies as circles, through one batch query each.

static void hit_enemy( demo_enemy* e, vec2s from )
{
	e->flash = DEMO_FLASH_FRAMES;
	if ( e->kind == DEMO_WALKER )
	{
		float away = e->position.x >= from.x ? 1.0f : -1.0f;
		e->velocity = kcc_v2( 5.0f * away, 6.0f );
	}
	else if ( e->kind == DEMO_SLIME )
	{
		vec2s d = unit_or( glms_vec2_sub( e->position, from ), kcc_v2( 1.0f, 0.0f ) );
		e->phase = atan2f( d.y, d.x );
	}
}

// Enemies overlapping the attack's shape (and, for a slam, its volume's height) that this attack has not hit yet.
static int hit_enemies( demo_game* g, const kcc_shape* shape, const kcc_volume* volume )
{
	vec2s centers[DEMO_MAX_ENEMIES];
	float radii[DEMO_MAX_ENEMIES];
	int indices[DEMO_MAX_ENEMIES];
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		kcc_circle c = enemy_circle( g->enemies + i );
		centers[i] = c.center;
		radii[i] = c.radius;
	}
	int count = kcc_batch_overlap_circles( shape, centers, radii, g->enemy_count, indices );
	int new_hits = 0;
	vec2s from = demo_player_center( g );
	for ( int k = 0; k < count; ++k )
	{
		int i = indices[k];
		demo_enemy* e = g->enemies + i;
		if ( volume != NULL )
		{
			// 2.5D: the enemy as its circle extruded over its height interval, against the slam's volume.
			kcc_shape circle = kcc_make_circle( centers[i], radii[i] );
			kcc_volume body = kcc_make_volume( &circle, e->z_min, e->z_max );
			if ( kcc_volume_overlap( volume, &body ) == false )
			{
				if ( g->attack.hit[i] == false )
				{
					g->attack.hit[i] = true; // counted once
					g->attack.missed_by_height += 1;
					g->stats.slam_height_misses += 1;
					demo_log( g, "slam passes under %s (z %.1f..%.1f)", e->name, (double)e->z_min, (double)e->z_max );
				}
				continue;
			}
		}
		if ( g->attack.hit[i] == false )
		{
			g->attack.hit[i] = true;
			g->attack.hit_count += 1;
			hit_enemy( e, from );
			new_hits += 1;
		}
	}
	return new_hits;
}

static void begin_attack( demo_game* g, demo_attack_kind kind, int frames )
{
	memset( &g->attack, 0, sizeof( g->attack ) );
	g->attack.kind = kind;
	g->attack.timer = frames;
}

static void slam( demo_game* g, float angle )
{
	demo_player* p = &g->player;
	begin_attack( g, DEMO_ATTACK_SLAM, 24 );
	g->attack.angle = angle;
	vec2s at = demo_player_position( g );
	if ( p->top_down )
	{
		// Seed 003's attack volume: a box in front of the character along the aim, from the ground up to 1.
		g->attack.volume = kcc_make_attack_volume( at, 0.0f, g->attack.angle, 2.4f, 3.2f, 1.0f, 0.0f );
	}
	else
	{
		// A shock wave along the ground, 5 wide and 1.5 high, in the characters' depth lane.
		vec2s feet = kcc_v2( at.x, at.y - DEMO_FOOT );
		kcc_shape wave =
			kcc_make_aabb( kcc_v2( feet.x - 2.5f, feet.y - 0.1f ), kcc_v2( feet.x + 2.5f, feet.y + 1.4f ) );
		g->attack.volume = kcc_make_volume( &wave, -0.5f, 0.5f );
	}
	g->attack.shape = g->attack.volume.shape;
	int hits = hit_enemies( g, &g->attack.shape, &g->attack.volume );
	g->stats.slam_hits += hits;
	demo_log( g, "ground slam (2.5D volume): %d hit", hits );
}

static void start_attacks( demo_game* g, const demo_input* in )
{
	demo_player* p = &g->player;
	if ( p->cooldown > 0 )
	{
		p->cooldown -= 1;
		return;
	}
	vec2s center = demo_player_center( g );
	vec2s aim = unit_or( glms_vec2_sub( in->aim, center ), kcc_v2( p->facing, 0.0f ) );
	// Seed 001: the attack's angle from the aim by atan2, its direction back from the angle.
	float angle = atan2f( aim.y, aim.x );
	if ( in->fan )
	{
		begin_attack( g, DEMO_ATTACK_FAN, 14 );
		g->attack.angle = angle;
		vec2s direction = kcc_v2( cosf( angle ), sinf( angle ) );
		g->attack.shape = kcc_make_sector( center, direction, 2.4f, 100.0f * DEMO_DEGREES );
		int hits = hit_enemies( g, &g->attack.shape, NULL );
		g->stats.fan_hits += hits;
		demo_log( g, "fan attack at %.0f deg: %d hit", (double)( angle / DEMO_DEGREES ), hits );
		p->cooldown = 16;
	}
	else if ( in->dash )
	{
		begin_attack( g, DEMO_ATTACK_DASH, 18 );
		g->attack.angle = angle;
		p->dash_frames = 10;
		p->dash_velocity = glms_vec2_scale( aim, 20.0f );
		p->dash_start = center;
		g->attack.shape = kcc_make_capsule( center, center, 0.45f );
		demo_log( g, "dash at %.0f deg", (double)( angle / DEMO_DEGREES ) );
		p->cooldown = 24;
	}
	else if ( in->slam )
	{
		p->cooldown = 30;
		if ( p->top_down || kcc_controller_is_on_floor( p->controller ) )
		{
			slam( g, angle );
		}
		else
		{
			p->diving = true;
			p->dash_frames = 0;
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The player

static void set_player_shape( demo_game* g, demo_shape_kind kind, bool crouched, bool announce )
{
	demo_player* p = &g->player;
	kcc_shape shape = player_shape( kind, crouched );
	kcc_status status = kcc_controller_set_shape( p->controller, &shape );
	if ( status == KCC_OK )
	{
		p->shape_kind = kind;
		p->crouched = crouched;
		p->blocked_stand = false;
		return;
	}
	if ( announce )
	{
		bool blocked = status == KCC_ERROR_BLOCKED;
		demo_message( g, blocked ? "no room for that shape here: KCC_ERROR_BLOCKED" : kcc_status_string( status ) );
		demo_log( g, "set_shape: %s", blocked ? "KCC_ERROR_BLOCKED" : kcc_status_string( status ) );
	}
}

static void try_stand_up( demo_game* g )
{
	demo_player* p = &g->player;
	kcc_shape shape = player_shape( p->shape_kind, false );
	kcc_status status = kcc_controller_set_shape( p->controller, &shape );
	if ( status == KCC_OK )
	{
		p->crouched = false;
		p->blocked_stand = false;
	}
	else if ( p->blocked_stand == false )
	{
		// Announce each blocked try once; it is retried every frame until there is room.
		p->blocked_stand = true;
		g->stats.blocked_stand_ups += 1;
		demo_message( g, "can't stand up here: KCC_ERROR_BLOCKED" );
		demo_log( g, "stand up: %s", status == KCC_ERROR_BLOCKED ? "KCC_ERROR_BLOCKED" : kcc_status_string( status ) );
	}
}

static void handle_zone_events( demo_game* g )
{
	demo_player* p = &g->player;
	const kcc_move_result* r = &p->result;
	for ( int i = 0; i < r->sensor_event_count; ++i )
	{
		const kcc_sensor_event* e = r->sensor_events + i;
		const kcc_level_object* o = kcc_level_object_of_shape( g->level, e->shape );
		const char* name = o != NULL ? o->name : "zone";
		bool begin = e->type == KCC_SENSOR_BEGIN;
		demo_log( g, "%s%s", begin ? "+" : "-", name );
		if ( begin )
		{
			g->stats.zone_begins += 1;
		}
		else
		{
			g->stats.zone_ends += 1;
		}
		if ( o == NULL )
		{
			continue;
		}
		if ( begin && prop_bool( o, "checkpoint" ) )
		{
			p->respawn = kcc_v2( 0.5f * ( o->bounds.min.x + o->bounds.max.x ), o->bounds.min.y );
			g->stats.visited[FEATURE_CHECKPOINT] = true;
			demo_message( g, "checkpoint" );
		}
		if ( begin && strncmp( name, "speed bump", 10 ) == 0 )
		{
			g->stats.bump_begins |= 1 << ( name[strlen( name ) - 1] - '1' );
		}
		if ( begin == false && strcmp( name, "mud" ) == 0 )
		{
			g->stats.visited[FEATURE_SLOW_ZONE] = true;
		}
		const kcc_level_property* target = kcc_level_get_object_property( o, "target" );
		if ( begin && target != NULL && target->type == KCC_PROPERTY_OBJECT )
		{
			const kcc_level_object* spawn = object_by_id( g->level, (int)target->number );
			p->teleport = spawn != NULL ? spawn->name : NULL;
		}
	}
	// Slow zones and speed bumps: the slowest zone the character is in.
	p->speed_scale = 1.0f;
	for ( int i = 0; i < r->sensor_count; ++i )
	{
		const kcc_level_object* o = kcc_level_object_of_shape( g->level, r->sensors[i] );
		float slow = o != NULL ? prop_float( o, "slow", 1.0f ) : 1.0f;
		p->speed_scale = slow < p->speed_scale ? slow : p->speed_scale;
	}
}

static void teleport_player( demo_game* g )
{
	demo_player* p = &g->player;
	const kcc_level_object* spawn = kcc_level_find( g->level, KCC_LEVEL_SPAWN, p->teleport );
	p->teleport = NULL;
	if ( spawn == NULL )
	{
		return;
	}
	bool top_down = strcmp( prop_string( spawn, "mode", "platformer" ), "top_down" ) == 0;
	demo_log( g, "door to '%s' (%s)", spawn->name, top_down ? "top-down: FLOATING" : "platformer: GROUNDED" );
	spawn_player( g, spawn->position, top_down );
}

static void player_step( demo_game* g, const demo_input* in )
{
	demo_player* p = &g->player;
	if ( in->shape >= 0 && in->shape < DEMO_SHAPE_COUNT && (demo_shape_kind)in->shape != p->shape_kind )
	{
		set_player_shape( g, (demo_shape_kind)in->shape, p->crouched, true );
	}
	vec2s v = p->velocity;
	bool on_floor = kcc_controller_is_on_floor( p->controller );
	if ( p->top_down )
	{
		vec2s move = in->move;
		float length = glms_vec2_norm( move );
		move = length > 1.0f ? glms_vec2_scale( move, 1.0f / length ) : move;
		float speed = ( in->run ? DEMO_RUN_SPEED : DEMO_WALK_SPEED ) * p->speed_scale;
		v = glms_vec2_scale( move, speed );
	}
	else
	{
		bool crouch = in->move.y < -0.5f;
		if ( crouch && p->crouched == false )
		{
			set_player_shape( g, p->shape_kind, true, false );
		}
		else if ( crouch == false && p->crouched )
		{
			try_stand_up( g );
		}
		p->coyote = on_floor ? 0 : p->coyote + 1;
		float speed = ( in->run ? DEMO_RUN_SPEED : DEMO_WALK_SPEED ) * p->speed_scale * ( p->crouched ? 0.5f : 1.0f );
		float target = in->move.x * speed;
		if ( on_floor )
		{
			v.x = target;
		}
		else
		{
			// In the air the speed turns gradually: the momentum a jump off a moving platform got is kept.
			float change = target - v.x, most = DEMO_AIR_ACCELERATION * DEMO_DT;
			v.x += change > most ? most : ( change < -most ? -most : change );
		}
		v.y -= DEMO_GRAVITY * DEMO_DT;
		v.y = v.y < -DEMO_MAX_FALL_SPEED ? -DEMO_MAX_FALL_SPEED : v.y;
		if ( in->jump && crouch && on_floor )
		{
			const cpShape* floor = p->result.floor_shape;
			if ( kcc_controller_drop_through( p->controller ) == KCC_OK )
			{
				p->drop_timer = 1;
				p->drop_top = floor != NULL ? (float)cpShapeGetBB( floor ).t : p->result.position.y;
				demo_log( g, "drop through '%s'", demo_shape_name( g, floor ) );
			}
		}
		else if ( in->jump && p->coyote <= DEMO_COYOTE_FRAMES && p->crouched == false )
		{
			v.y = DEMO_JUMP_SPEED;
			p->coyote = DEMO_COYOTE_FRAMES + 1;
		}
	}
	start_attacks( g, in );
	if ( p->dash_frames > 0 )
	{
		v = p->dash_velocity;
		p->dash_frames -= 1;
		if ( p->dash_frames == 0 )
		{
			v = kcc_v2( p->top_down ? 0.0f : 0.4f * v.x, 0.0f );
		}
	}
	if ( p->diving )
	{
		v = kcc_v2( 0.0f, -28.0f );
	}
	if ( in->move.x != 0.0f )
	{
		p->facing = in->move.x > 0.0f ? 1.0f : -1.0f;
	}
	p->wanted = glms_vec2_scale( v, DEMO_DT );
	kcc_move_result result;
	if ( kcc_controller_move_and_slide( p->controller, v, DEMO_DT, &v, &result ) != KCC_OK )
	{
		return;
	}
	p->velocity = v;
	p->result = result;
	handle_zone_events( g );
	if ( p->diving && ( result.flags & KCC_ON_FLOOR ) )
	{
		p->diving = false;
		slam( g, -0.5f * DEMO_PI );
	}
	if ( p->dash_frames > 0 || ( g->attack.kind == DEMO_ATTACK_DASH && g->attack.timer > 8 ) )
	{
		// The dash hits what the capsule it swept so far touches.
		g->attack.shape = kcc_make_capsule( p->dash_start, demo_player_center( g ), 0.45f );
		g->stats.dash_hits += hit_enemies( g, &g->attack.shape, NULL );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Enemies

static void enemy_step( demo_enemy* e )
{
	if ( e->flash > 0 )
	{
		e->flash -= 1;
	}
	if ( e->kind == DEMO_BAT )
	{
		e->phase += 1.2f * DEMO_DT;
		vec2s around = kcc_v2( e->orbit_radius * cosf( e->phase ), e->orbit_radius * sinf( e->phase ) );
		e->position = glms_vec2_add( e->orbit_center, around );
		return;
	}
	vec2s v;
	bool stunned = e->flash > DEMO_FLASH_FRAMES / 2;
	if ( e->kind == DEMO_SLIME )
	{
		v = kcc_v2( DEMO_SLIME_SPEED * cosf( e->phase ), DEMO_SLIME_SPEED * sinf( e->phase ) );
	}
	else
	{
		v = e->velocity;
		if ( stunned == false )
		{
			if ( e->position.x <= e->min_x )
			{
				v.x = DEMO_WALKER_SPEED;
			}
			else if ( e->position.x >= e->max_x )
			{
				v.x = -DEMO_WALKER_SPEED;
			}
			else
			{
				v.x = v.x >= 0.0f ? DEMO_WALKER_SPEED : -DEMO_WALKER_SPEED;
			}
		}
		v.y -= DEMO_GRAVITY * DEMO_DT;
		v.y = v.y < -DEMO_MAX_FALL_SPEED ? -DEMO_MAX_FALL_SPEED : v.y;
	}
	e->wanted = glms_vec2_scale( v, DEMO_DT );
	vec2s out;
	if ( kcc_controller_move_and_slide( e->controller, v, DEMO_DT, &out, &e->result ) != KCC_OK )
	{
		return;
	}
	e->position = e->result.position;
	bool on_wall = ( e->result.flags & KCC_ON_WALL ) != 0;
	bool blocked = on_wall && fabsf( e->result.displacement.x ) < 0.5f * fabsf( e->wanted.x );
	if ( e->kind == DEMO_SLIME )
	{
		// Off a wall at a new angle (deterministic: a fixed turn).
		e->phase += ( e->result.flags & KCC_ON_WALL ) ? 2.0f : 0.0f;
	}
	else
	{
		e->velocity = out;
		if ( stunned == false )
		{
			e->velocity.x = blocked ? -v.x : v.x;
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The frame

void demo_game_step( demo_game* g, const demo_input* in )
{
	g->frame += 1;
	if ( g->message_timer > 0 )
	{
		g->message_timer -= 1;
	}
	if ( g->attack.timer > 0 && --g->attack.timer == 0 )
	{
		g->attack.kind = DEMO_ATTACK_NONE;
	}
	// DESIGN.md's frame order: platforms first (the level's paths and the swing), then the characters.
	kcc_level_step( g->level, DEMO_DT );
	if ( g->swing_body != NULL )
	{
		double t = kcc_level_get_time( g->level );
		cpBodySetAngle( g->swing_body, g->swing_amplitude * sin( 2.0 * 3.14159265358979323846 * t / g->swing_period ) );
		kcc_space_reindex_body( g->space, g->swing_body );
	}
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		enemy_step( g->enemies + i );
	}
	vec2s previous = kcc_controller_get_position( g->player.controller );
	player_step( g, in );
	demo_checks_measure( g, previous );
	if ( g->player.teleport != NULL )
	{
		teleport_player( g );
	}
}

void demo_game_respawn( demo_game* g )
{
	demo_log( g, "respawn" );
	spawn_player( g, g->player.respawn, false );
}

