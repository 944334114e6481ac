// SPDX-License-Identifier: MIT
// The user guide's pictures. Each is a small cpSpace built here, a character moved through it by kcc2d, and one
// frame drawn with the demo's renderer: the level, faded copies of the character along the way, the last move
// through kcc_debug_draw_move, and a caption. Plus one picture of the demo level for the top of the README.
#include "pictures.h"

#include "render.h"
#include "tour.h"

#include <SDL_image.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define PICTURE_W 640
#define PICTURE_H 340
#define SCENE_MAX_SHAPES 32
#define SCENE_MAX_BODIES 4
#define SCENE_MAX_GHOSTS 64
#define ONE_WAY_CATEGORY ( 1u << 1 )
#define PUSHABLE_CATEGORY ( 1u << 2 )
#define ZONE_CATEGORY ( 1u << 3 )

typedef struct ghost
{
	kcc_shape shape; ///< the character, in the world
	kcc_shape extra; ///< a platform or crate with it (invalid if none)
} ghost;

typedef struct scene
{
	cpSpace* space;
	cpShape* shapes[SCENE_MAX_SHAPES];
	int shape_count;
	cpBody* bodies[SCENE_MAX_BODIES];
	int body_count;
	kcc_controller* c;
	vec2s velocity;
	vec2s wanted;
	kcc_move_result result;
	ghost ghosts[SCENE_MAX_GHOSTS];
	int ghost_count;
	const char* zone_name;
} scene;

static kcc_color rgba( uint8_t r, uint8_t g, uint8_t b, uint8_t a )
{
	kcc_color c = { r, g, b, a };
	return c;
}

// ---------------------------------------------------------------------------------------------------------------
// Building a scene

static cpShape* scene_add( scene* s, cpShape* shape, cpBitmask category )
{
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, category, CP_ALL_CATEGORIES ) );
	s->shapes[s->shape_count++] = cpSpaceAddShape( s->space, shape );
	return shape;
}

static cpShape* scene_box( scene* s, float x0, float y0, float x1, float y1 )
{
	return scene_add( s, cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( x0, y0, x1, y1 ), 0.0 ), 1u );
}

// The floor most scenes stand on: its top at y = 0.
static cpShape* scene_floor( scene* s )
{
	return scene_box( s, -3.0f, -1.0f, 14.0f, 0.0f );
}

static cpShape* scene_polygon( scene* s, const cpVect* points, int count )
{
	return scene_add( s, cpPolyShapeNewRaw( cpSpaceGetStaticBody( s->space ), count, points, 0.0 ), 1u );
}

static cpShape* scene_zone( scene* s, float x0, float y0, float x1, float y1 )
{
	cpShape* box = cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( x0, y0, x1, y1 ), 0.0 );
	cpShape* zone = scene_add( s, box, ZONE_CATEGORY );
	cpShapeSetSensor( zone, cpTrue );
	return zone;
}

// A box on its own kinematic body (a platform or a crate), centred at (x, y).
static cpBody* scene_body_box( scene* s, float x, float y, float w, float h, cpBitmask category )
{
	cpBody* body = cpSpaceAddBody( s->space, cpBodyNewKinematic() );
	cpBodySetPosition( body, cpv( x, y ) );
	s->bodies[s->body_count++] = body;
	scene_add( s, cpBoxShapeNew( body, w, h, 0.0 ), category );
	kcc_space_reindex_body( s->space, body );
	return body;
}

static bool scene_character( scene* s, kcc_shape shape, vec2s position, float step_height )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = shape;
	def.position = position;
	def.step_height = step_height;
	def.snap_distance = 0.2f;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, DEMO_CHARACTER_CATEGORY, CP_ALL_CATEGORIES & ~DEMO_CHARACTER_CATEGORY );
	def.one_way_categories = ONE_WAY_CATEGORY;
	def.pushable_categories = PUSHABLE_CATEGORY;
	s->c = kcc_controller_create( s->space, &def );
	return s->c != NULL;
}

static scene* scene_create( void )
{
	static scene s;
	memset( &s, 0, sizeof( s ) );
	s.space = cpSpaceNew();
	return &s;
}

static void scene_destroy( scene* s )
{
	kcc_controller_destroy( s->c );
	for ( int i = 0; i < s->shape_count; ++i )
	{
		cpSpaceRemoveShape( s->space, s->shapes[i] );
		cpShapeFree( s->shapes[i] );
	}
	for ( int i = 0; i < s->body_count; ++i )
	{
		cpSpaceRemoveBody( s->space, s->bodies[i] );
		cpBodyFree( s->bodies[i] );
	}
	cpSpaceFree( s->space );
}

static kcc_shape no_shape( void )
{
	kcc_shape none = { .type = KCC_SHAPE_INVALID };
	return none;
}

static kcc_shape character_now( const scene* s )
{
	kcc_controller_state state = kcc_controller_get_state( s->c );
	return kcc_shape_translate( &state.shape, state.position );
}

static kcc_shape body_shape_now( const cpBody* body, float w, float h )
{
	cpVect p = cpBodyGetPosition( body );
	float angle = (float)cpBodyGetAngle( body );
	return kcc_make_obb( kcc_v2( (float)p.x, (float)p.y ), kcc_v2( 0.5f * w, 0.5f * h ), angle );
}

static void scene_ghost( scene* s, kcc_shape extra )
{
	if ( s->ghost_count < SCENE_MAX_GHOSTS )
	{
		s->ghosts[s->ghost_count++] = ( ghost ){ character_now( s ), extra };
	}
}

// One frame of a platformer at 60 Hz: gravity, an input speed, an optional jump.
static void scene_step( scene* s, float input_x, bool jump )
{
	const float dt = 1.0f / 60.0f;
	vec2s v = s->velocity;
	v.x = input_x;
	v.y -= 30.0f * dt;
	if ( jump && kcc_controller_is_on_floor( s->c ) )
	{
		v.y = 13.0f;
	}
	s->wanted = glms_vec2_scale( v, dt );
	kcc_controller_move_and_slide( s->c, v, dt, &s->velocity, &s->result );
}

// frames frames of walking at speed, a ghost before each.
static void scene_walk( scene* s, float speed, int frames )
{
	for ( int i = 0; i < frames; ++i )
	{
		scene_ghost( s, no_shape() );
		scene_step( s, speed, false );
	}
}

// One move of a whole displacement (to show a single cast and its slides), with a ghost where each cast ended.
static void scene_move( scene* s, vec2s delta )
{
	s->wanted = delta;
	kcc_controller_move( s->c, delta, &s->result );
	kcc_controller_state state = kcc_controller_get_state( s->c );
	for ( int i = 1; i + 1 < s->result.path_count && s->ghost_count < SCENE_MAX_GHOSTS; ++i )
	{
		s->ghosts[s->ghost_count++] = ( ghost ){ kcc_shape_translate( &state.shape, s->result.path[i] ), no_shape() };
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Drawing a scene

typedef struct picture
{
	SDL_Surface* surface;
	SDL_Renderer* renderer;
	demo_view view;
	const char* folder;
	int written;
	bool failed;
} picture;

static bool scene_style( const cpShape* shape, kcc_color* line, kcc_color* fill, void* context )
{
	(void)context;
	return demo_shape_colors( shape, ONE_WAY_CATEGORY, PUSHABLE_CATEGORY, rgba( 80, 224, 128, 70 ), line, fill );
}

// The zone the scene being drawn names (the draw's context is the view, which knows no scene).
static const char* s_zone_name;

static const char* scene_name_of( const void* shape, void* context )
{
	(void)shape;
	(void)context;
	return s_zone_name;
}

static void label( picture* p, vec2s at, const char* text, kcc_color color )
{
	SDL_FPoint s = demo_view_to_screen( &p->view, at );
	demo_view_text( &p->view, 1, s.x, s.y, text, color );
}

// Draws the scene (the camera at center, scale pixels per unit): the level, every `every`-th ghost, the character,
// the last move's overlay, a title and the legend. The caller adds its labels, then saves.
static void render_scene( picture* p, scene* s, vec2s center, float scale, const char* title, int every )
{
	demo_view* v = &p->view;
	v->center = center;
	v->scale = scale;
	v->draw.text_height = 16.0f / scale;
	v->draw.name_of = scene_name_of;
	s_zone_name = s->zone_name;
	SDL_SetRenderDrawColor( p->renderer, 24, 27, 36, 255 );
	SDL_RenderClear( p->renderer );
	v->line_width = 1.0f;
	kcc_debug_draw_space( &v->draw, s->space, scene_style, NULL );
	for ( int i = 0; i < s->ghost_count; i += every )
	{
		if ( kcc_shape_is_valid( &s->ghosts[i].extra ) )
		{
			kcc_debug_draw_shape( &v->draw, &s->ghosts[i].extra, rgba( 120, 220, 225, 90 ), KCC_COLOR_NONE );
		}
		kcc_debug_draw_shape( &v->draw, &s->ghosts[i].shape, rgba( 150, 180, 255, 120 ), KCC_COLOR_NONE );
	}
	kcc_shape now = character_now( s );
	v->line_width = 1.5f;
	kcc_debug_draw_shape( &v->draw, &now, rgba( 255, 255, 255, 255 ), rgba( 80, 150, 245, 255 ) );
	v->line_width = 2.0f;
	v->font_for_world_text = 1;
	kcc_debug_draw_move( &v->draw, s->c, s->wanted, &s->result );
	demo_view_panel( v, 0.0f, 0.0f, (float)v->width, 26.0f, rgba( 10, 12, 18, 200 ) );
	demo_view_text( v, 0, 10.0f, 4.0f, title, rgba( 255, 230, 120, 255 ) );
	demo_view_legend( v );
}

static void save_picture( picture* p, const char* file )
{
	SDL_RenderPresent( p->renderer );
	char path[1024];
	snprintf( path, sizeof( path ), "%s/%s", p->folder, file );
	if ( IMG_SavePNG( p->surface, path ) != 0 )
	{
		fprintf( stderr, "demo: could not write %s: %s\n", path, IMG_GetError() );
		p->failed = true;
		return;
	}
	printf( "wrote %s\n", path );
	p->written += 1;
}

static void finish_picture( picture* p, scene* s, const char* file )
{
	save_picture( p, file );
	scene_destroy( s );
}

// ---------------------------------------------------------------------------------------------------------------
// The scenes

static const kcc_color k_note = { 235, 238, 245, 255 };
static const kcc_color k_dim = { 170, 176, 195, 255 };

static kcc_shape capsule_shape( void )
{
	return kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
}

static void sweep_lines( picture* p, vec2s a, vec2s b, float half_height )
{
	kcc_color sweep = rgba( 150, 180, 255, 120 );
	p->view.line_width = 1.0f;
	p->view.draw.draw_segment( kcc_v2( a.x, a.y + half_height ), kcc_v2( b.x, b.y + half_height ), sweep, &p->view );
	p->view.draw.draw_segment( kcc_v2( a.x, a.y - half_height ), kcc_v2( b.x, b.y - half_height ), sweep, &p->view );
}

static void picture_cast( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	scene_box( s, 7.0f, 0.0f, 8.0f, 4.0f );
	scene_character( s, capsule_shape(), kcc_v2( 1.2f, 1.8f ), 0.0f );
	scene_ghost( s, no_shape() );
	scene_move( s, kcc_v2( 6.0f, 0.0f ) );
	render_scene( p, s, kcc_v2( 4.3f, 2.0f ), 64.0f,
				  "the cast: the shape swept along the motion stops a skin before what it meets", 1 );
	sweep_lines( p, kcc_v2( 1.2f, 1.8f ), s->result.position, 0.6f );
	label( p, kcc_v2( 0.7f, 3.0f ), "start", k_dim );
	label( p, kcc_v2( 2.2f, 3.4f ), "one cast: to the time of impact, minus the skin (0.01)", k_note );
	label( p, kcc_v2( 7.15f, 1.2f ), "hit point, normal", k_note );
	finish_picture( p, s, "cast.png" );
}

static void picture_slide( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	scene_box( s, 6.5f, 0.0f, 7.5f, 5.0f );
	scene_character( s, capsule_shape(), kcc_v2( 1.5f, 3.4f ), 0.0f );
	scene_ghost( s, no_shape() );
	scene_move( s, kcc_v2( 6.5f, -2.0f ) );
	render_scene( p, s, kcc_v2( 4.2f, 2.2f ), 64.0f,
				  "the slide: the blocked part of the motion is removed, the rest goes on along the wall", 1 );
	label( p, kcc_v2( 0.9f, 4.4f ), "start", k_dim );
	label( p, kcc_v2( 0.0f, 1.0f ), "cast, then slide down the wall (magenta: the tangent)", k_note );
	finish_picture( p, s, "slide.png" );
}

static void picture_crease( picture* p )
{
	scene* s = scene_create();
	// A V of two walls steeper than max_floor_angle, meeting at the bottom.
	cpBody* ground = cpSpaceGetStaticBody( s->space );
	scene_add( s, cpSegmentShapeNew( ground, cpv( 1.0, 4.6 ), cpv( 3.0, 0.6 ), 0.05 ), 1u );
	scene_add( s, cpSegmentShapeNew( ground, cpv( 3.0, 0.6 ), cpv( 5.0, 4.6 ), 0.05 ), 1u );
	scene_character( s, kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.45f ), kcc_v2( 2.4f, 4.0f ), 0.0f );
	scene_walk( s, 0.0f, 50 );
	render_scene( p, s, kcc_v2( 3.0f, 2.4f ), 64.0f,
				  "a crease: two walls at once leave no way along both: the character stops, no jitter", 6 );
	label( p, kcc_v2( 4.6f, 2.5f ), "falling into a V of two walls:", k_note );
	label( p, kcc_v2( 4.6f, 2.1f ), "both met in one move, motion 0", k_note );
	finish_picture( p, s, "crease.png" );
}

static void picture_snap( picture* p )
{
	scene* s = scene_create();
	float run = 2.0f / tanf( 30.0f * DEMO_DEGREES );
	scene_box( s, -3.0f, -1.0f, 2.0f, 2.0f );
	cpVect slope[4] = { cpv( 2.0, -1.0 ), cpv( 2.0 + run, -1.0 ), cpv( 2.0 + run, 0.0 ), cpv( 2.0, 2.0 ) };
	scene_polygon( s, slope, 4 );
	scene_box( s, 2.0f + run, -1.0f, 14.0f, 0.0f );
	scene_character( s, capsule_shape(), kcc_v2( 0.2f, 2.61f ), 0.0f );
	scene_walk( s, 6.0f, 44 );
	render_scene( p, s, kcc_v2( 3.4f, 1.9f ), 64.0f,
				  "the snap: walking down, each move ends pulled down onto the floor", 4 );
	label( p, kcc_v2( 3.3f, 3.5f ), "snap_distance 0.2: KCC_SNAPPED,", k_note );
	label( p, kcc_v2( 3.3f, 3.15f ), "on the floor every frame", k_note );
	finish_picture( p, s, "snap.png" );
}

static void picture_step( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	scene_box( s, 3.0f, 0.0f, 14.0f, 0.25f );
	scene_character( s, kcc_make_box( kcc_v2( 0.3f, 0.45f ), 0.05f ), kcc_v2( 0.6f, 0.51f ), 0.3f );
	for ( int i = 0; i < 60 && ( s->result.flags & KCC_STEPPED ) == 0; ++i )
	{
		scene_ghost( s, no_shape() );
		scene_step( s, 4.0f, false );
	}
	// A few frames on, so that the character stands on the step; the overlay shows the move that climbed it.
	kcc_move_result climb = s->result;
	vec2s wanted = s->wanted;
	scene_walk( s, 4.0f, 8 );
	s->result = climb;
	s->wanted = wanted;
	render_scene( p, s, kcc_v2( 2.6f, 1.4f ), 80.0f,
				  "a step: up, forward and down in one move, no farther than the input", 4 );
	label( p, kcc_v2( -1.0f, 1.9f ), "step_height 0.3: the move that climbs it is KCC_STEPPED", k_note );
	finish_picture( p, s, "step.png" );
}

static void picture_platform( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	cpBody* platform = scene_body_box( s, 1.8f, 1.2f, 3.0f, 0.4f, 1u );
	scene_character( s, capsule_shape(), kcc_v2( 1.4f, 2.01f ), 0.0f );
	for ( int i = 0; i < 80; ++i )
	{
		scene_ghost( s, body_shape_now( platform, 3.0f, 0.4f ) );
		// The platform first (moved by position), then the character: DESIGN.md's frame order.
		cpVect at = cpBodyGetPosition( platform );
		cpBodySetPosition( platform, cpv( at.x + 3.0 / 60.0, at.y + 0.8 * sin( (double)i * 0.08 ) / 60.0 ) );
		kcc_space_reindex_body( s->space, platform );
		scene_step( s, 0.0f, false );
	}
	render_scene( p, s, kcc_v2( 3.8f, 2.0f ), 64.0f,
				  "a moving platform: the character is carried by its motion since the last move", 10 );
	label( p, kcc_v2( 4.6f, 3.4f ), "no input: carried, on the floor every frame", k_note );
	finish_picture( p, s, "platform.png" );
}

static void picture_one_way( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	cpShape* ledge = cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( 2.5, 2.0, 7.0, 2.25 ), 0.0 );
	scene_add( s, ledge, ONE_WAY_CATEGORY );
	scene_character( s, capsule_shape(), kcc_v2( 2.0f, 0.61f ), 0.0f );
	bool left = false;
	for ( int i = 0; i < 90; ++i )
	{
		scene_ghost( s, no_shape() );
		scene_step( s, 2.5f, i == 0 );
		left = left || ( s->result.flags & KCC_ON_FLOOR ) == 0;
		if ( left && ( s->result.flags & KCC_ON_FLOOR ) )
		{
			break;
		}
	}
	render_scene( p, s, kcc_v2( 3.9f, 2.0f ), 64.0f,
				  "a one-way platform: passed from below, landed on from above", 3 );
	label( p, kcc_v2( 5.2f, 3.6f ), "one_way_categories", k_note );
	finish_picture( p, s, "one_way.png" );
}

static void picture_zones( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	scene_zone( s, 4.0f, 0.0f, 4.15f, 3.0f );
	s->zone_name = "checkpoint";
	scene_character( s, capsule_shape(), kcc_v2( 1.0f, 0.61f ), 0.0f );
	scene_ghost( s, no_shape() );
	scene_move( s, kcc_v2( 6.5f, 0.0f ) );
	render_scene( p, s, kcc_v2( 4.3f, 1.6f ), 64.0f,
				  "zones: a dash of 6.5 in one move through a checkpoint 0.15 wide", 1 );
	label( p, kcc_v2( 1.6f, 2.6f ), "both events, in path order, where they happened", k_note );
	finish_picture( p, s, "zones.png" );
}

static void picture_pushing( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	scene_box( s, 8.0f, 0.0f, 9.0f, 3.0f );
	scene_body_box( s, 3.5f, 0.5f, 1.0f, 1.0f, PUSHABLE_CATEGORY );
	scene_body_box( s, 4.52f, 0.5f, 1.0f, 1.0f, PUSHABLE_CATEGORY );
	scene_character( s, capsule_shape(), kcc_v2( 2.6f, 0.61f ), 0.0f );
	scene_walk( s, 4.0f, 80 );
	render_scene( p, s, kcc_v2( 4.8f, 1.7f ), 64.0f,
				  "pushing: crates in pushable_categories move with the character, walls stop them", 8 );
	label( p, kcc_v2( 1.2f, 2.6f ), "a row of two crates, pushed to the wall", k_note );
	finish_picture( p, s, "pushing.png" );
}

// docs/debug_draw.md's picture: one move's whole overlay (a slide down a wall through a zone onto the floor) and a
// geometry-core shape drawn with kcc_debug_draw_shape.
static void picture_debug_draw( picture* p )
{
	scene* s = scene_create();
	scene_floor( s );
	scene_box( s, 5.5f, 0.0f, 6.0f, 4.0f );
	scene_zone( s, 2.5f, 0.0f, 2.8f, 3.5f );
	s->zone_name = "checkpoint";
	scene_character( s, capsule_shape(), kcc_v2( 0.4f, 2.8f ), 0.0f );
	scene_ghost( s, no_shape() );
	scene_move( s, kcc_v2( 5.8f, -2.4f ) );
	render_scene( p, s, kcc_v2( 4.2f, 1.9f ), 64.0f,
				  "kcc_debug_draw_move: one move's path, hits, normals, tangents, flags and zone events", 1 );
	// A sword arc and two enemies, drawn as a game's hit test would be: filled where it hits.
	kcc_shape arc = kcc_make_sector( kcc_v2( 6.7f, 1.3f ), kcc_v2( 1.0f, 0.15f ), 2.0f, 100.0f * DEMO_DEGREES );
	kcc_shape enemies[2] = { kcc_make_circle( kcc_v2( 8.2f, 1.7f ), 0.3f ),
							 kcc_make_circle( kcc_v2( 8.7f, 3.0f ), 0.3f ) };
	p->view.line_width = 1.5f;
	kcc_debug_draw_shape( &p->view.draw, &arc, rgba( 255, 200, 90, 255 ), rgba( 255, 200, 90, 60 ) );
	for ( int i = 0; i < 2; ++i )
	{
		bool hit = kcc_overlap( &arc, &enemies[i] );
		kcc_debug_draw_shape( &p->view.draw, &enemies[i], rgba( 255, 120, 110, 255 ),
							  hit ? rgba( 255, 90, 80, 200 ) : KCC_COLOR_NONE );
	}
	label( p, kcc_v2( 6.3f, 4.05f ), "kcc_debug_draw_shape:", k_note );
	label( p, kcc_v2( 6.3f, 3.7f ), "a sword arc, one enemy hit", k_note );
	label( p, kcc_v2( -0.3f, 3.95f ), "start", k_dim );
	finish_picture( p, s, "debug_draw.png" );
}

// The README's picture: six moments of the demo's tour, each a small view of the level around the player, side by
// side, with the overlay's legend below.
#define PANEL_W 320
#define PANEL_H 180
#define PANEL_COLUMNS 3

typedef struct panel
{
	const char* snapshot; ///< the tour's frame
	const char* caption;
} panel;

static const panel k_panels[] = {
	{ "stairs", "stairs (the rounded box)" },
	{ "crates", "pushing crates" },
	{ "lift", "riding a lift" },
	{ "swing", "a swinging platform" },
	{ "fan", "fan attack: atan2 + batch query" },
	{ "room_slam", "top-down: the 2.5D slam" },
};
#define PANEL_COUNT ( (int)( sizeof( k_panels ) / sizeof( k_panels[0] ) ) )

static int panel_of( const char* snapshot )
{
	for ( int i = 0; snapshot != NULL && i < PANEL_COUNT; ++i )
	{
		if ( strcmp( k_panels[i].snapshot, snapshot ) == 0 )
		{
			return i;
		}
	}
	return -1;
}

static bool picture_demo( const char* map, const char* folder )
{
	int rows = ( PANEL_COUNT + PANEL_COLUMNS - 1 ) / PANEL_COLUMNS;
	int sheet_w = PANEL_W * PANEL_COLUMNS, sheet_h = PANEL_H * rows + 26;
	SDL_Surface* sheet = SDL_CreateRGBSurfaceWithFormat( 0, sheet_w, sheet_h, 32, SDL_PIXELFORMAT_RGBA32 );
	SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormat( 0, PANEL_W, PANEL_H, 32, SDL_PIXELFORMAT_RGBA32 );
	SDL_Renderer* renderer = surface != NULL ? SDL_CreateSoftwareRenderer( surface ) : NULL;
	static demo_game game;
	if ( sheet == NULL || renderer == NULL || demo_game_init( &game, map ) == false )
	{
		return false;
	}
	demo_view view;
	demo_view_init( &view, renderer, PANEL_W, PANEL_H, 30.0f );
	view.hud = false;
	view.legend = false;
	view.overlay = true; // the guide's picture is a diagram: the physics-debug view
	view.reserved_top = 20; // each panel's title
	demo_tour tour;
	demo_tour_start( &tour );
	int drawn = 0;
	while ( tour.done == false )
	{
		demo_input in = demo_tour_input( &tour, &game );
		int k = panel_of( tour.snapshot );
		if ( k >= 0 )
		{
			demo_view_follow( &view, &game, true );
			if ( game.player.top_down == false )
			{
				view.center.y -= 1.0f; // the player a little lower: room above for the captions
			}
			demo_view_draw( &view, &game );
			demo_view_panel( &view, 0.0f, 0.0f, (float)PANEL_W, 20.0f, rgba( 10, 12, 18, 200 ) );
			// A dark frame between the panels.
			demo_view_panel( &view, 0.0f, 0.0f, 2.0f, (float)PANEL_H, rgba( 8, 9, 12, 255 ) );
			demo_view_panel( &view, (float)PANEL_W - 2.0f, 0.0f, 2.0f, (float)PANEL_H, rgba( 8, 9, 12, 255 ) );
			demo_view_panel( &view, 0.0f, (float)PANEL_H - 2.0f, (float)PANEL_W, 2.0f, rgba( 8, 9, 12, 255 ) );
			demo_view_text( &view, 1, 9.0f, 3.0f, k_panels[k].caption, rgba( 255, 230, 120, 255 ) );
			SDL_RenderPresent( renderer );
			SDL_Rect at = { ( k % PANEL_COLUMNS ) * PANEL_W, ( k / PANEL_COLUMNS ) * PANEL_H, PANEL_W, PANEL_H };
			SDL_BlitSurface( surface, NULL, sheet, &at );
			drawn += 1;
		}
		demo_game_step( &game, &in );
	}
	// The legend along the bottom, drawn on a strip of its own.
	SDL_Surface* strip = SDL_CreateRGBSurfaceWithFormat( 0, PANEL_W * PANEL_COLUMNS, 26, 32, SDL_PIXELFORMAT_RGBA32 );
	SDL_Renderer* strip_renderer = strip != NULL ? SDL_CreateSoftwareRenderer( strip ) : NULL;
	bool ok = drawn == PANEL_COUNT && strip_renderer != NULL;
	if ( strip_renderer != NULL )
	{
		demo_view legend;
		demo_view_init( &legend, strip_renderer, PANEL_W * PANEL_COLUMNS, 26, 30.0f );
		SDL_SetRenderDrawColor( strip_renderer, 24, 27, 36, 255 );
		SDL_RenderClear( strip_renderer );
		demo_view_legend( &legend );
		SDL_RenderPresent( strip_renderer );
		SDL_Rect at = { 0, PANEL_H * rows, PANEL_W * PANEL_COLUMNS, 26 };
		SDL_BlitSurface( strip, NULL, sheet, &at );
		demo_view_shutdown( &legend );
		SDL_DestroyRenderer( strip_renderer );
	}
	char path[1024];
	snprintf( path, sizeof( path ), "%s/demo.png", folder );
	ok = ok && IMG_SavePNG( sheet, path ) == 0;
	printf( ok ? "wrote %s\n" : "demo: could not write %s\n", path );
	demo_view_shutdown( &view );
	demo_game_shutdown( &game );
	SDL_DestroyRenderer( renderer );
	SDL_FreeSurface( surface );
	SDL_FreeSurface( strip );
	SDL_FreeSurface( sheet );
	return ok;
}

int demo_render_pictures( const char* map, const char* folder )
{
	mkdir( folder, 0755 );
	picture p;
	memset( &p, 0, sizeof( p ) );
	p.folder = folder;
	p.surface = SDL_CreateRGBSurfaceWithFormat( 0, PICTURE_W, PICTURE_H, 32, SDL_PIXELFORMAT_RGBA32 );
	p.renderer = p.surface != NULL ? SDL_CreateSoftwareRenderer( p.surface ) : NULL;
	if ( p.renderer == NULL )
	{
		fprintf( stderr, "demo: software renderer failed: %s\n", SDL_GetError() );
		return 1;
	}
	demo_view_init( &p.view, p.renderer, PICTURE_W, PICTURE_H, 64.0f );
	p.view.immediate_text = true; // each scene places its own labels
	picture_cast( &p );
	picture_slide( &p );
	picture_crease( &p );
	picture_snap( &p );
	picture_step( &p );
	picture_platform( &p );
	picture_one_way( &p );
	picture_zones( &p );
	picture_pushing( &p );
	picture_debug_draw( &p );
	demo_view_shutdown( &p.view );
	SDL_DestroyRenderer( p.renderer );
	SDL_FreeSurface( p.surface );

	if ( picture_demo( map, folder ) )
	{
		p.written += 1;
	}
	else
	{
		p.failed = true;
	}
	printf( "%d pictures in %s\n", p.written, folder );
	return p.failed ? 1 : 0;
}
