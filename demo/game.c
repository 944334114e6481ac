// SPDX-License-Identifier: MIT
// The demo's game rules on kcc2d: the level from Tiled, the player (platformer or top-down), enemies, the swing,
// zones, attacks, and the measurements the tour checks (features visited, stuck frames, overlaps).
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_PI 3.14159265358979323846f
#define DEMO_DEGREES ( DEMO_PI / 180.0f )

// Every player shape has its bottom this far below the position, standing or crouched: crouching and switching
// shapes keep the feet where they are.
#define DEMO_FOOT 0.6f
#define DEMO_MAX_FALL_SPEED 25.0f
#define DEMO_AIR_ACCELERATION 40.0f
#define DEMO_COYOTE_FRAMES 6
#define DEMO_WALKER_SPEED 2.0f
#define DEMO_SLIME_SPEED 1.5f
#define DEMO_FLASH_FRAMES 24
// An overlap deeper than this is a failure of the controller (DESIGN.md property 1).
#define DEMO_OVERLAP_TOLERANCE 1.0e-3f
#define DEMO_MAX_CRATES 8

typedef struct demo_crate
{
	cpBody* body;
	cpVect start;
} demo_crate;

// Game state that the drawing code has no use for.
static demo_crate s_crates[DEMO_MAX_CRATES];
static int s_crate_count;
static kcc_aabb s_tunnel;
static bool s_in_tunnel;
static float s_swing_min, s_swing_max;

// ---------------------------------------------------------------------------------------------------------------
// Helpers

static float prop_float( const kcc_level_object* o, const char* name, float fallback )
{
	const kcc_level_property* p = kcc_level_object_property( o, name );
	return p != NULL && ( p->type == KCC_PROPERTY_FLOAT || p->type == KCC_PROPERTY_INT ) ? (float)p->number : fallback;
}

static const char* prop_string( const kcc_level_object* o, const char* name, const char* fallback )
{
	const kcc_level_property* p = kcc_level_object_property( o, name );
	return p != NULL && p->type == KCC_PROPERTY_STRING ? p->string : fallback;
}

static bool prop_bool( const kcc_level_object* o, const char* name )
{
	const kcc_level_property* p = kcc_level_object_property( o, name );
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
			return crouched ? kcc_make_circle( kcc_v2( 0.0f, -0.3f ), 0.3f ) : kcc_make_circle( kcc_v2( 0.0f, -0.15f ), 0.45f );
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
	def.max_floor_angle = 50.0f * DEMO_DEGREES; // 45 degree slopes walkable with room to spare, 60 not
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
	return kcc_level_shape_name( g->level, shape );
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
	cpSpaceReindexShapesForBody( g->space, g->swing_body );
}

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
	if ( ( categories & DEMO_CHARACTER_CATEGORY ) != 0 || kcc_shape_is_valid( world ) == false || g->shape_count == c->capacity )
	{
		return;
	}
	cpBody* body = cpShapeGetBody( shape );
	demo_world_shape* s = g->shapes + g->shape_count++;
	s->shape = shape;
	s->world = *world;
	s->position = cpBodyGetPosition( body );
	s->angle = cpBodyGetAngle( body );
	s->moves = cpBodyGetType( body ) == CP_BODY_TYPE_KINEMATIC;
	s->one_way = ( categories & g->level_def.one_way_category ) != 0;
	s->solid = cpShapeGetSensor( shape ) == cpFalse && s->one_way == false;
}

// The level's shapes as kcc_shapes, once: the checks move those on kinematic bodies with their bodies.
static bool cache_level_shapes( demo_game* g )
{
	int capacity = kcc_level_get_info( g->level ).shape_count + 16;
	g->shapes = malloc( sizeof( demo_world_shape ) * (size_t)capacity );
	if ( g->shapes == NULL )
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
	return kcc_shape_transform( &local, kcc_v2( (float)p.x, (float)p.y ), (float)( cpBodyGetAngle( body ) - s->angle ) );
}

bool demo_game_init( demo_game* g, const char* map_path )
{
	memset( g, 0, sizeof( *g ) );
	s_crate_count = 0;
	s_in_tunnel = false;
	s_swing_min = s_swing_max = 0.0f;
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
		else if ( strcmp( o->name, "tunnel roof" ) == 0 )
		{
			s_tunnel = o->bounds;
		}
		else if ( o->kind == KCC_LEVEL_CRATE && s_crate_count < DEMO_MAX_CRATES )
		{
			s_crates[s_crate_count++] = ( demo_crate ){ o->body, cpBodyGetPosition( o->body ) };
		}
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
	return ok && cache_level_shapes( g ) && spawn_player( g, start->position, false );
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
	free( g->shapes );
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
	e->hits += 1;
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
		kcc_shape wave = kcc_make_aabb( kcc_v2( feet.x - 2.5f, feet.y - 0.1f ), kcc_v2( feet.x + 2.5f, feet.y + 1.4f ) );
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
		g->attack.shape = kcc_make_sector( center, kcc_v2( cosf( angle ), sinf( angle ) ), 2.4f, 100.0f * DEMO_DEGREES );
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
		demo_message( g, status == KCC_ERROR_BLOCKED ? "no room for that shape here: KCC_ERROR_BLOCKED" : kcc_status_string( status ) );
		demo_log( g, "set_shape: %s", status == KCC_ERROR_BLOCKED ? "KCC_ERROR_BLOCKED" : kcc_status_string( status ) );
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
		const kcc_level_property* target = kcc_level_object_property( o, "target" );
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
			if ( kcc_controller_drop_through( p->controller ) )
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
		e->position = glms_vec2_add( e->orbit_center, kcc_v2( e->orbit_radius * cosf( e->phase ), e->orbit_radius * sinf( e->phase ) ) );
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
	bool blocked = ( e->result.flags & KCC_ON_WALL ) != 0 && fabsf( e->result.displacement.x ) < 0.5f * fabsf( e->wanted.x );
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
// Measurements

// The deepest overlap of a character with anything solid: the level's shapes (one-way shapes excepted: characters
// pass through them) and the other characters.
static float character_overlap( const demo_game* g, kcc_controller* controller )
{
	kcc_controller_state state = kcc_controller_get_state( controller );
	kcc_shape shape = kcc_shape_translate( &state.shape, state.position );
	kcc_aabb bounds = kcc_shape_bounds( &shape );
	float worst = 0.0f;
	for ( int i = 0; i < g->shape_count; ++i )
	{
		const demo_world_shape* s = g->shapes + i;
		if ( s->solid == false )
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
	for ( int i = 0; i < g->shape_count; ++i )
	{
		const demo_world_shape* s = g->shapes + i;
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
	s->visited[FEATURE_SPEED_BUMPS] = s->bump_begins == 7;
	// Crates: pushed, and one of them moved at least 2 units.
	if ( r->flags & KCC_PUSHED )
	{
		s->pushed_frames += 1;
	}
	for ( int i = 0; i < s_crate_count; ++i )
	{
		float travel = (float)cpvdist( cpBodyGetPosition( s_crates[i].body ), s_crates[i].start );
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
	if ( lift != NULL && floor_body == lift->body && kcc_level_platform_velocity( g->level, lift ).y > 0.5f )
	{
		s->lift_frames += 1;
	}
	if ( floor != NULL && floor == g->swing_shape )
	{
		float angle = (float)cpBodyGetAngle( g->swing_body );
		if ( s->swing_frames == 0 )
		{
			s_swing_min = s_swing_max = angle;
		}
		s_swing_min = angle < s_swing_min ? angle : s_swing_min;
		s_swing_max = angle > s_swing_max ? angle : s_swing_max;
		s->swing_angle_seen = s_swing_max - s_swing_min;
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
		if ( floor != NULL && g->enemies[i].controller != NULL && floor == kcc_controller_get_shape( g->enemies[i].controller ) )
		{
			s->enemy_ride_frames += 1;
		}
	}
	s->visited[FEATURE_STAND_ON_ENEMY] = s->enemy_ride_frames >= 20;
	// The tunnel: in it low, then out the far side.
	vec2s at = r->position;
	if ( at.x > s_tunnel.min.x && at.x < s_tunnel.max.x && bounds.max.y < s_tunnel.min.y )
	{
		s_in_tunnel = true;
	}
	if ( s_in_tunnel && at.x > s_tunnel.max.x + 0.3f )
	{
		s->visited[FEATURE_TUNNEL] = true;
	}
	s->visited[FEATURE_CROUCH_BLOCKED] = s->blocked_stand_ups > 0;
}

static void measure( demo_game* g, vec2s previous )
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
		bool enemy_stuck = is_stuck( &e->result, e->wanted, e->kind == DEMO_WALKER );
		e->stuck_frames += enemy_stuck ? 1 : 0;
		stuck = stuck || enemy_stuck;
		crushed = crushed || ( e->result.flags & KCC_CRUSHED ) != 0;
	}
	s->worst_overlap = worst > s->worst_overlap ? worst : s->worst_overlap;
	s->overlap_frames += worst > DEMO_OVERLAP_TOLERANCE ? 1 : 0;
	s->stuck_frames += stuck ? 1 : 0;
	s->crushed_frames += crushed ? 1 : 0;
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
		cpSpaceReindexShapesForBody( g->space, g->swing_body );
	}
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		enemy_step( g->enemies + i );
	}
	vec2s previous = kcc_controller_get_position( g->player.controller );
	player_step( g, in );
	measure( g, previous );
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
		case FEATURE_SPEED_BUMPS:
			snprintf( out, size, "bumps entered: %d of 3", ( s->bump_begins & 1 ) + ( ( s->bump_begins >> 1 ) & 1 ) + ( ( s->bump_begins >> 2 ) & 1 ) );
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
			snprintf( out, size, "%d frames, turned %.1f degrees", s->swing_frames, (double)( s->swing_angle_seen / DEMO_DEGREES ) );
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
			snprintf( out, size, "moved %.1f, walls %s", (double)s->top_down_travel, s->top_down_wall ? "met" : "not met" );
			break;
		default:
			out[0] = '\0';
			break;
	}
}
