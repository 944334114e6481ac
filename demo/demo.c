// SPDX-License-Identifier: MIT
// kcc2d demo: three characters (circle, capsule, rounded box) patrol a level of separate 1x1 tiles with a 30 degree
// slope, a 60 degree slope they can not climb, small steps, a V crease, a low ceiling and a sensor zone; the
// capsule swings a sword arc (a sector) that lights up the enemies it hits (a batch query over 300 circles).
//
// With a display: a window; arrows move the capsule, space jumps, Esc quits. Without one (or with --headless):
// 600 frames are simulated and every 100th is written as a PNG (default folder kcc_demo_frames).
#include "kcc/kcc.h"

#include <SDL.h>
#include <SDL_image.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCREEN_W 1280
#define SCREEN_H 720
#define PIXELS_PER_UNIT 40.0f
#define MAX_LEVEL_SHAPES 256
#define ENEMY_COUNT 300
#define CHARACTER_COUNT 3
#define FRAME_DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define WALK_SPEED 5.0f
#define JUMP_SPEED 12.5f
#define SENSOR_CATEGORY 2u

typedef struct level_piece
{
	kcc_shape shape; // drawn; the cpShape below is what the controller sees
	cpShape* body_shape;
	bool sensor;
} level_piece;

typedef struct demo_character
{
	kcc_controller* controller;
	vec2s velocity;
	float facing; // +1 right, -1 left
	int jump_timer;
	uint32_t flags;
	SDL_Color color;
	const char* name;
	kcc_shape shape; // local, around the position
} demo_character;

typedef struct demo
{
	cpSpace* space;
	level_piece pieces[MAX_LEVEL_SHAPES];
	int piece_count;
	demo_character characters[CHARACTER_COUNT];
	vec2s enemy_centers[ENEMY_COUNT];
	float enemy_radii[ENEMY_COUNT];
	int enemy_hits[ENEMY_COUNT];
	int enemy_hit_count;
	kcc_shape sword;
	int frame;
} demo;

static uint32_t s_rng = 12345u;
static float random_float( float lo, float hi )
{
	s_rng = s_rng * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( s_rng >> 8 ) / 16777216.0f;
}

static void add_piece( demo* d, kcc_shape shape, cpShape* body_shape, bool sensor )
{
	if ( d->piece_count >= MAX_LEVEL_SHAPES )
	{
		fprintf( stderr, "demo: too many level shapes\n" );
		exit( 1 );
	}
	cpSpaceAddShape( d->space, body_shape );
	d->pieces[d->piece_count++] = ( level_piece ){ shape, body_shape, sensor };
}

static void add_polygon( demo* d, const vec2s* points, int count )
{
	cpVect verts[KCC_MAX_POLYGON_VERTICES];
	for ( int i = 0; i < count; ++i )
	{
		verts[i] = cpv( points[i].x, points[i].y );
	}
	cpShape* shape = cpPolyShapeNewRaw( cpSpaceGetStaticBody( d->space ), count, verts, 0.0 );
	add_piece( d, kcc_make_polygon( points, count, 0.0f ), shape, false );
}

static void add_tile( demo* d, float x, float y )
{
	vec2s box[4] = { kcc_v2( x, y ), kcc_v2( x + 1, y ), kcc_v2( x + 1, y + 1 ), kcc_v2( x, y + 1 ) };
	add_polygon( d, box, 4 );
}

static void add_segment( demo* d, vec2s a, vec2s b )
{
	cpShape* shape = cpSegmentShapeNew( cpSpaceGetStaticBody( d->space ), cpv( a.x, a.y ), cpv( b.x, b.y ), 0.0 );
	add_piece( d, kcc_make_capsule( a, b, 0.0f ), shape, false );
}

static void build_level( demo* d )
{
	for ( int x = 0; x < 32; ++x )
	{
		add_tile( d, (float)x, 0.0f ); // separate floor tiles: their seams must never snag
	}
	for ( int y = 1; y < 17; ++y )
	{
		add_tile( d, 0.0f, (float)y );
		add_tile( d, 31.0f, (float)y );
	}
	// 30 degree slope up to a plateau, then a 60 degree wall-like slope down from it.
	float top = 1.0f + 4.0f * tanf( 30.0f * GLM_PIf / 180.0f );
	vec2s slope30[3] = { kcc_v2( 5, 1 ), kcc_v2( 9, 1 ), kcc_v2( 9, top ) };
	add_polygon( d, slope30, 3 );
	vec2s plateau[4] = { kcc_v2( 9, 1 ), kcc_v2( 11, 1 ), kcc_v2( 11, top ), kcc_v2( 9, top ) };
	add_polygon( d, plateau, 4 );
	float run60 = ( top - 1.0f ) / tanf( 60.0f * GLM_PIf / 180.0f );
	vec2s slope60[3] = { kcc_v2( 11, 1 ), kcc_v2( 11 + run60, 1 ), kcc_v2( 11, top ) };
	add_polygon( d, slope60, 3 );
	// A 60 degree slope facing the walkers: they can not climb it.
	vec2s steep[3] = { kcc_v2( 14, 1 ), kcc_v2( 15.5f, 1 ), kcc_v2( 15.5f, 1 + 1.5f * tanf( 60.0f * GLM_PIf / 180.0f ) ) };
	add_polygon( d, steep, 3 );
	// Small steps (climbed by step_height), then a V crease made of two zero-thickness segments.
	vec2s step1[4] = { kcc_v2( 18, 1 ), kcc_v2( 21, 1 ), kcc_v2( 21, 1.2f ), kcc_v2( 18, 1.2f ) };
	add_polygon( d, step1, 4 );
	vec2s step2[4] = { kcc_v2( 19, 1.2f ), kcc_v2( 20, 1.2f ), kcc_v2( 20, 1.4f ), kcc_v2( 19, 1.4f ) };
	add_polygon( d, step2, 4 );
	add_segment( d, kcc_v2( 23, 3.5f ), kcc_v2( 25.5f, 1.0f ) );
	add_segment( d, kcc_v2( 25.5f, 1.0f ), kcc_v2( 28, 3.5f ) );
	// A low ceiling of separate tiles.
	for ( int x = 2; x < 8; ++x )
	{
		add_tile( d, (float)x, 5.0f );
	}
	// A sensor zone: reported, never blocking.
	kcc_shape zone = kcc_make_aabb( kcc_v2( 12.5f, 1.0f ), kcc_v2( 13.5f, 4.0f ) );
	cpShape* sensor = cpBoxShapeNew2( cpSpaceGetStaticBody( d->space ), cpBBNew( 12.5, 1.0, 13.5, 4.0 ), 0.0 );
	cpShapeSetSensor( sensor, cpTrue );
	cpShapeSetFilter( sensor, cpShapeFilterNew( CP_NO_GROUP, SENSOR_CATEGORY, CP_ALL_CATEGORIES ) );
	add_piece( d, zone, sensor, true );
}

static bool make_character( demo* d, int index, kcc_shape shape, vec2s position, SDL_Color color, const char* name )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = shape;
	def.position = position;
	def.step_height = 0.25f;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES );
	kcc_controller* c = kcc_controller_create( d->space, &def );
	if ( c == NULL )
	{
		const char* problem = kcc_controller_def_problem( &def );
		fprintf( stderr, "demo: %s refused: %s\n", name, problem != NULL ? problem : "unknown" );
		return false;
	}
	d->characters[index] = ( demo_character ){ c, kcc_v2( 0, 0 ), 1.0f, 40 + 25 * index, 0, color, name, shape };
	return true;
}

static bool demo_init( demo* d )
{
	memset( d, 0, sizeof( *d ) );
	d->space = cpSpaceNew();
	build_level( d );
	SDL_Color red = { 230, 90, 70, 255 }, green = { 90, 200, 110, 255 }, blue = { 90, 140, 240, 255 };
	bool ok = make_character( d, 0, kcc_make_circle( kcc_v2( 0, 0 ), 0.4f ), kcc_v2( 2.5f, 2.0f ), red, "circle" );
	ok = ok && make_character( d, 1, kcc_make_capsule( kcc_v2( 0, -0.3f ), kcc_v2( 0, 0.3f ), 0.3f ),
							   kcc_v2( 16.5f, 2.5f ), green, "capsule" );
	ok = ok && make_character( d, 2, kcc_make_box( kcc_v2( 0.3f, 0.45f ), 0.08f ), kcc_v2( 22.0f, 2.5f ), blue,
							   "rounded box" );
	for ( int i = 0; i < ENEMY_COUNT; ++i )
	{
		d->enemy_centers[i] = kcc_v2( random_float( 1.5f, 30.5f ), random_float( 3.0f, 14.0f ) );
		d->enemy_radii[i] = random_float( 0.08f, 0.25f );
	}
	return ok;
}

static void demo_shutdown( demo* d )
{
	for ( int i = 0; i < CHARACTER_COUNT; ++i )
	{
		kcc_controller_destroy( d->characters[i].controller );
	}
	for ( int i = 0; i < d->piece_count; ++i )
	{
		cpSpaceRemoveShape( d->space, d->pieces[i].body_shape );
		cpShapeFree( d->pieces[i].body_shape );
	}
	cpSpaceFree( d->space );
}

// Scripted patrol: walk, turn around at walls, jump now and then. The player can drive character 1 instead.
static void step_character( demo_character* ch, float input_x, bool jump )
{
	vec2s v = ch->velocity;
	v.x = input_x * WALK_SPEED;
	if ( jump && ( ch->flags & KCC_ON_FLOOR ) )
	{
		v.y = JUMP_SPEED;
	}
	v.y -= GRAVITY * FRAME_DT;
	kcc_move_result result;
	vec2s clipped;
	if ( kcc_controller_move_and_slide( ch->controller, v, FRAME_DT, &clipped, &result ) != KCC_OK )
	{
		return;
	}
	ch->velocity = clipped;
	ch->flags = result.flags;
	if ( input_x != 0.0f )
	{
		ch->facing = input_x > 0.0f ? 1.0f : -1.0f;
	}
}

static void demo_step( demo* d, const Uint8* keys )
{
	for ( int i = 0; i < CHARACTER_COUNT; ++i )
	{
		demo_character* ch = d->characters + i;
		float input_x = ch->facing;
		bool jump = false;
		if ( keys != NULL && i == 1 )
		{
			input_x = (float)keys[SDL_SCANCODE_RIGHT] - (float)keys[SDL_SCANCODE_LEFT];
			jump = keys[SDL_SCANCODE_SPACE] != 0;
		}
		else
		{
			// Turn at a wall the character is walking into; jump every ~2 s.
			if ( ( ch->flags & KCC_ON_WALL ) && fabsf( ch->velocity.x ) < 0.5f * WALK_SPEED )
			{
				ch->facing = -ch->facing;
				input_x = ch->facing;
			}
			if ( --ch->jump_timer <= 0 )
			{
				jump = true;
				ch->jump_timer = 130;
			}
		}
		step_character( ch, input_x, jump );
	}
	// The capsule's sword arc: 100 degrees, 6 units, aimed up and ahead and swinging; a batch query finds the
	// enemies inside it.
	vec2s p = kcc_controller_get_position( d->characters[1].controller );
	float facing = d->characters[1].facing;
	float swing = 0.9f * sinf( (float)d->frame * 0.08f );
	vec2s direction = kcc_v2( facing * cosf( 0.6f + swing ), sinf( 0.6f + swing ) );
	d->sword = kcc_make_sector( p, direction, 6.0f, 100.0f * GLM_PIf / 180.0f );
	d->enemy_hit_count = kcc_batch_overlap_circles( &d->sword, d->enemy_centers, d->enemy_radii, ENEMY_COUNT,
													d->enemy_hits );
	d->frame += 1;
}

// --- drawing -------------------------------------------------------------------------------------------------------

static SDL_FPoint to_screen( vec2s p )
{
	float view_x = 0.0f, view_y = -0.5f; // world units at the lower-left corner of the screen
	SDL_FPoint s = { ( p.x - view_x ) * PIXELS_PER_UNIT, SCREEN_H - ( p.y - view_y ) * PIXELS_PER_UNIT };
	return s;
}

// Boundary of a convex shape: its core vertices, each expanded by the rounding radius with an arc.
static int shape_outline( const kcc_shape* s, vec2s* out, int capacity )
{
	vec2s core[KCC_MAX_POLYGON_VERTICES + 1];
	int count = 0;
	float radius = 0.0f;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			core[0] = s->circle.center;
			count = 1;
			radius = s->circle.radius;
			break;
		case KCC_SHAPE_CAPSULE:
			core[0] = s->capsule.a;
			core[1] = s->capsule.b;
			count = 2;
			radius = s->capsule.radius;
			break;
		case KCC_SHAPE_AABB:
			core[0] = s->aabb.min;
			core[1] = kcc_v2( s->aabb.max.x, s->aabb.min.y );
			core[2] = s->aabb.max;
			core[3] = kcc_v2( s->aabb.min.x, s->aabb.max.y );
			count = 4;
			break;
		case KCC_SHAPE_POLYGON:
			count = s->polygon.count;
			memcpy( core, s->polygon.vertices, sizeof( vec2s ) * (size_t)count );
			radius = s->polygon.radius;
			break;
		case KCC_SHAPE_SECTOR:
		{
			// apex, then the arc across the opening
			int n = 0;
			out[n++] = s->sector.apex;
			float base = atan2f( s->sector.direction.y, s->sector.direction.x );
			int arc_points = capacity - 1;
			for ( int i = 0; i < arc_points; ++i )
			{
				float a = base - 0.5f * s->sector.angle + s->sector.angle * (float)i / (float)( arc_points - 1 );
				out[n++] = glms_vec2_add( s->sector.apex, kcc_v2( s->sector.radius * cosf( a ), s->sector.radius * sinf( a ) ) );
			}
			return n;
		}
		default:
			return 0;
	}
	if ( radius <= 0.0f )
	{
		memcpy( out, core, sizeof( vec2s ) * (size_t)count );
		return count;
	}
	// Arc around each core vertex from the previous edge's normal to the next edge's normal (CCW).
	int n = 0;
	int per_vertex = ( capacity / count ) - 1;
	for ( int i = 0; i < count; ++i )
	{
		vec2s prev = core[( i + count - 1 ) % count], next = core[( i + 1 ) % count];
		float a0, a1;
		if ( count == 1 )
		{
			a0 = 0.0f;
			a1 = 2.0f * GLM_PIf;
		}
		else
		{
			// the outward normal of a CCW edge e is (e.y, -e.x): arc from the previous edge's normal to the next's
			vec2s e0 = glms_vec2_sub( core[i], prev ), e1 = glms_vec2_sub( next, core[i] );
			a0 = atan2f( -e0.x, e0.y );
			a1 = atan2f( -e1.x, e1.y );
			while ( a1 < a0 )
			{
				a1 += 2.0f * GLM_PIf;
			}
		}
		for ( int k = 0; k <= per_vertex && n < capacity; ++k )
		{
			float a = a0 + ( a1 - a0 ) * (float)k / (float)per_vertex;
			out[n++] = glms_vec2_add( core[i], kcc_v2( radius * cosf( a ), radius * sinf( a ) ) );
		}
	}
	return n;
}

static void draw_polygon( SDL_Renderer* r, const vec2s* points, int count, SDL_Color fill, SDL_Color line )
{
	if ( count < 2 )
	{
		return;
	}
	SDL_Vertex vertices[3 * 128];
	int n = 0;
	for ( int i = 1; i + 1 < count && n + 3 <= 3 * 128; ++i )
	{
		const vec2s* tri[3] = { points, points + i, points + i + 1 };
		for ( int k = 0; k < 3; ++k )
		{
			vertices[n++] = ( SDL_Vertex ){ to_screen( *tri[k] ), fill, { 0, 0 } };
		}
	}
	if ( fill.a > 0 )
	{
		SDL_RenderGeometry( r, NULL, vertices, n, NULL, 0 );
	}
	SDL_FPoint outline[130];
	int m = count < 129 ? count : 129;
	for ( int i = 0; i < m; ++i )
	{
		outline[i] = to_screen( points[i] );
	}
	outline[m] = outline[0];
	SDL_SetRenderDrawColor( r, line.r, line.g, line.b, line.a );
	SDL_RenderDrawLinesF( r, outline, m + 1 );
}

static void draw_shape( SDL_Renderer* r, const kcc_shape* s, SDL_Color fill, SDL_Color line )
{
	vec2s points[128];
	int count = shape_outline( s, points, 128 );
	draw_polygon( r, points, count, fill, line );
}

static void demo_draw( const demo* d, SDL_Renderer* r )
{
	SDL_SetRenderDrawBlendMode( r, SDL_BLENDMODE_BLEND );
	SDL_SetRenderDrawColor( r, 24, 26, 32, 255 );
	SDL_RenderClear( r );
	SDL_Color tile_fill = { 70, 74, 88, 255 }, tile_line = { 120, 126, 148, 255 };
	SDL_Color sensor_fill = { 80, 160, 255, 50 }, sensor_line = { 80, 160, 255, 160 };
	for ( int i = 0; i < d->piece_count; ++i )
	{
		const level_piece* piece = d->pieces + i;
		draw_shape( r, &piece->shape, piece->sensor ? sensor_fill : tile_fill, piece->sensor ? sensor_line : tile_line );
	}
	SDL_Color sword_fill = { 255, 220, 90, 40 }, sword_line = { 255, 220, 90, 180 };
	draw_shape( r, &d->sword, sword_fill, sword_line );
	static bool hit_mask[ENEMY_COUNT];
	memset( hit_mask, 0, sizeof( hit_mask ) );
	for ( int i = 0; i < d->enemy_hit_count; ++i )
	{
		hit_mask[d->enemy_hits[i]] = true;
	}
	for ( int i = 0; i < ENEMY_COUNT; ++i )
	{
		kcc_shape enemy = kcc_make_circle( d->enemy_centers[i], d->enemy_radii[i] );
		SDL_Color fill = hit_mask[i] ? ( SDL_Color ){ 255, 80, 60, 230 } : ( SDL_Color ){ 150, 150, 160, 120 };
		draw_shape( r, &enemy, fill, fill );
	}
	for ( int i = 0; i < CHARACTER_COUNT; ++i )
	{
		const demo_character* ch = d->characters + i;
		kcc_shape world = kcc_shape_translate( &ch->shape, kcc_controller_get_position( ch->controller ) );
		SDL_Color fill = ch->color;
		fill.a = ( ch->flags & KCC_ON_FLOOR ) ? 255 : 150; // translucent while airborne
		draw_shape( r, &world, fill, ( SDL_Color ){ 255, 255, 255, 255 } );
	}
}

static bool save_png( SDL_Surface* surface, const char* folder, int frame )
{
	char path[512];
	snprintf( path, sizeof( path ), "%s/frame_%04d.png", folder, frame );
	if ( IMG_SavePNG( surface, path ) != 0 )
	{
		fprintf( stderr, "demo: could not write %s: %s\n", path, IMG_GetError() );
		return false;
	}
	printf( "wrote %s\n", path );
	return true;
}

static void print_summary( const demo* d )
{
	for ( int i = 0; i < CHARACTER_COUNT; ++i )
	{
		const demo_character* ch = d->characters + i;
		vec2s p = kcc_controller_get_position( ch->controller );
		printf( "%-12s at (%7.3f, %7.3f)%s%s\n", ch->name, (double)p.x, (double)p.y,
				( ch->flags & KCC_ON_FLOOR ) ? "  on floor" : "", ( ch->flags & KCC_ON_WALL ) ? "  on wall" : "" );
	}
	printf( "sword arc hits %d of %d enemies\n", d->enemy_hit_count, ENEMY_COUNT );
}

static int run_headless( demo* d, const char* folder, int frames )
{
	mkdir( folder, 0755 );
	SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormat( 0, SCREEN_W, SCREEN_H, 32, SDL_PIXELFORMAT_RGBA32 );
	SDL_Renderer* renderer = surface != NULL ? SDL_CreateSoftwareRenderer( surface ) : NULL;
	if ( renderer == NULL )
	{
		fprintf( stderr, "demo: software renderer failed: %s\n", SDL_GetError() );
		return 1;
	}
	int written = 0;
	for ( int f = 1; f <= frames; ++f )
	{
		demo_step( d, NULL );
		if ( f % 100 == 0 || f == frames )
		{
			demo_draw( d, renderer );
			SDL_RenderPresent( renderer );
			written += save_png( surface, folder, f ) ? 1 : 0;
		}
	}
	print_summary( d );
	SDL_DestroyRenderer( renderer );
	SDL_FreeSurface( surface );
	return written > 0 ? 0 : 1;
}

static int run_window( demo* d )
{
	SDL_Window* window = SDL_CreateWindow( "kcc2d demo: arrows move the capsule, space jumps", SDL_WINDOWPOS_CENTERED,
										   SDL_WINDOWPOS_CENTERED, SCREEN_W, SCREEN_H, 0 );
	SDL_Renderer* renderer = window != NULL ? SDL_CreateRenderer( window, -1, SDL_RENDERER_PRESENTVSYNC ) : NULL;
	if ( renderer == NULL )
	{
		fprintf( stderr, "demo: window failed: %s\n", SDL_GetError() );
		return 1;
	}
	bool running = true;
	Uint64 previous = SDL_GetPerformanceCounter();
	double accumulator = 0.0;
	while ( running )
	{
		SDL_Event event;
		while ( SDL_PollEvent( &event ) )
		{
			running = !( event.type == SDL_QUIT || ( event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE ) );
		}
		Uint64 now = SDL_GetPerformanceCounter();
		accumulator += (double)( now - previous ) / (double)SDL_GetPerformanceFrequency();
		previous = now;
		// Fixed steps: the controller takes dt as a parameter, and the demo keeps it constant.
		for ( int n = 0; accumulator >= FRAME_DT && n < 5; ++n )
		{
			demo_step( d, SDL_GetKeyboardState( NULL ) );
			accumulator -= FRAME_DT;
		}
		demo_draw( d, renderer );
		SDL_RenderPresent( renderer );
	}
	SDL_DestroyRenderer( renderer );
	SDL_DestroyWindow( window );
	return 0;
}

int main( int argc, char** argv )
{
	bool headless = getenv( "DISPLAY" ) == NULL && getenv( "WAYLAND_DISPLAY" ) == NULL;
	const char* folder = "kcc_demo_frames";
	int frames = 600;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--headless" ) == 0 )
		{
			headless = true;
		}
		else if ( strcmp( argv[i], "--out" ) == 0 && i + 1 < argc )
		{
			folder = argv[++i];
		}
		else if ( strcmp( argv[i], "--frames" ) == 0 && i + 1 < argc )
		{
			frames = atoi( argv[++i] );
		}
		else
		{
			printf( "usage: %s [--headless] [--out FOLDER] [--frames N]\n", argv[0] );
			return strcmp( argv[i], "--help" ) == 0 ? 0 : 2;
		}
	}
	if ( SDL_Init( headless ? 0 : SDL_INIT_VIDEO ) != 0 )
	{
		fprintf( stderr, "demo: SDL_Init failed (%s); falling back to headless\n", SDL_GetError() );
		headless = true;
		SDL_Init( 0 );
	}
	demo* d = malloc( sizeof( demo ) );
	if ( d == NULL || !demo_init( d ) )
	{
		return 1;
	}
	int status = headless ? run_headless( d, folder, frames > 0 ? frames : 600 ) : run_window( d );
	demo_shutdown( d );
	free( d );
	SDL_Quit();
	return status;
}
