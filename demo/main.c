// SPDX-License-Identifier: MIT
// kcc2d demo. With a display: a window on the demo level (keys in the HUD; Tab: the physics-debug view; T or --tour
// plays the tour). Without one (no DISPLAY / WAYLAND_DISPLAY) or with --headless: the scripted tour of every
// feature, rendered with SDL's software renderer, chosen frames written as PNG, and a summary (exit status 0 when
// every feature worked). --pictures DIR renders the user guide's pictures.
#include "game.h"
#include "pictures.h"
#include "render.h"
#include "tour.h"

#include <SDL.h>
#include <SDL_image.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCREEN_W 1280
#define SCREEN_H 720
#define PIXELS_PER_UNIT 52.0f

// The demo level: next to the executable when installed, else in the source tree.
static const char* find_map( const char* given )
{
	static char path[1024];
	if ( given != NULL )
	{
		return given;
	}
	char* base = SDL_GetBasePath();
	if ( base != NULL )
	{
		snprintf( path, sizeof( path ), "%slevels/demo.tmj", base );
		SDL_free( base );
		SDL_RWops* file = SDL_RWFromFile( path, "rb" );
		if ( file != NULL )
		{
			SDL_RWclose( file );
			return path;
		}
	}
#ifdef KCC_DEMO_SOURCE_DIR
	return KCC_DEMO_SOURCE_DIR "/levels/demo.tmj";
#else
	return "demo/levels/demo.tmj";
#endif
}

static bool save_frame( SDL_Surface* surface, const char* folder, int index, const char* name )
{
	char path[1024];
	snprintf( path, sizeof( path ), "%s/%02d_%s.png", folder, index, name );
	// Opaque frames: without the alpha channel the PNG has a quarter less to compress.
	SDL_Surface* rgb = SDL_ConvertSurfaceFormat( surface, SDL_PIXELFORMAT_RGB24, 0 );
	if ( rgb == NULL || IMG_SavePNG( rgb, path ) != 0 )
	{
		fprintf( stderr, "demo: could not write %s: %s\n", path, IMG_GetError() );
		SDL_FreeSurface( rgb );
		return false;
	}
	SDL_FreeSurface( rgb );
	printf( "wrote %s\n", path );
	return true;
}

static int run_headless_tour( const char* map, const char* folder, bool overlay )
{
	mkdir( folder, 0755 );
	SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormat( 0, SCREEN_W, SCREEN_H, 32, SDL_PIXELFORMAT_RGBA32 );
	SDL_Renderer* renderer = surface != NULL ? SDL_CreateSoftwareRenderer( surface ) : NULL;
	if ( renderer == NULL )
	{
		fprintf( stderr, "demo: software renderer failed: %s\n", SDL_GetError() );
		return 1;
	}
	static demo_game game;
	static demo_view view;
	if ( demo_game_init( &game, map ) == false )
	{
		return 1;
	}
	demo_view_init( &view, renderer, SCREEN_W, SCREEN_H, PIXELS_PER_UNIT );
	view.overlay = overlay;
	const char* font = demo_find_font();
	printf( "map: %s\nfont: %s\n", map, font != NULL ? font : "none: no text (install fonts-dejavu-core)" );
	demo_tour tour;
	demo_tour_start( &tour );
	Uint64 start = SDL_GetPerformanceCounter();
	bool written = true;
	view.caption = "";
	demo_view_follow( &view, &game, true );
	while ( tour.done == false )
	{
		demo_input in = demo_tour_input( &tour, &game );
		view.caption = tour.caption != NULL ? tour.caption : "";
		demo_view_follow( &view, &game, false );
		if ( tour.snapshot != NULL )
		{
			demo_view_draw( &view, &game );
			SDL_RenderPresent( renderer );
			written = save_frame( surface, folder, ++tour.snapshot_count, tour.snapshot ) && written;
		}
		if ( tour.done )
		{
			break;
		}
		demo_game_step( &game, &in );
	}
	double seconds = (double)( SDL_GetPerformanceCounter() - start ) / (double)SDL_GetPerformanceFrequency();
	printf( "labels: %d placed in %d frames, %d cut by the edge, %d over the player, %d over what they name, %d over "
			"other characters or the attack, %d over other labels\n",
			view.labels_placed, tour.snapshot_count, view.labels_cut, view.labels_on_player, view.labels_on_subject,
			view.labels_on_characters, view.labels_on_labels );
	int bad = view.labels_cut + view.labels_on_player + view.labels_on_subject + view.labels_on_characters +
			  view.labels_on_labels;
	if ( bad > 0 && tour.failed == false )
	{
		tour.failed = true;
		snprintf( tour.failure, sizeof( tour.failure ), "labels cut, or over a character, a label or what they name" );
	}
	bool ok = demo_tour_summary( &tour, &game, seconds ) && written;
	demo_view_shutdown( &view );
	demo_game_shutdown( &game );
	SDL_DestroyRenderer( renderer );
	SDL_FreeSurface( surface );
	return ok ? 0 : 1;
}

typedef struct window_input
{
	bool jump, fan, dash, slam;
	int shape;
} window_input;

static int run_window( const char* map, bool start_tour, bool overlay )
{
	SDL_Window* window = SDL_CreateWindow( "kcc2d demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, SCREEN_W,
										   SCREEN_H, SDL_WINDOW_RESIZABLE );
	SDL_Renderer* renderer = window != NULL ? SDL_CreateRenderer( window, -1, SDL_RENDERER_PRESENTVSYNC ) : NULL;
	if ( renderer == NULL )
	{
		fprintf( stderr, "demo: window failed: %s\n", SDL_GetError() );
		return 1;
	}
	SDL_RenderSetLogicalSize( renderer, SCREEN_W, SCREEN_H );
	static demo_game game;
	static demo_view view;
	if ( demo_game_init( &game, map ) == false )
	{
		return 1;
	}
	demo_view_init( &view, renderer, SCREEN_W, SCREEN_H, PIXELS_PER_UNIT );
	view.overlay = overlay;
	demo_view_follow( &view, &game, true );
	demo_tour tour;
	demo_tour_start( &tour );
	bool touring = start_tour, paused = false, running = true;
	Uint64 previous = SDL_GetPerformanceCounter();
	double accumulator = 0.0;
	window_input pressed = { false, false, false, false, -1 };
	while ( running )
	{
		bool step_once = false;
		SDL_Event event;
		while ( SDL_PollEvent( &event ) )
		{
			if ( event.type == SDL_QUIT )
			{
				running = false;
			}
			else if ( event.type == SDL_KEYDOWN && event.key.repeat == 0 )
			{
				switch ( event.key.keysym.sym )
				{
					case SDLK_ESCAPE: running = false; break;
					case SDLK_SPACE: case SDLK_w: case SDLK_UP: pressed.jump = true; break;
					case SDLK_f: pressed.slam = true; break;
					case SDLK_1: pressed.shape = DEMO_CIRCLE; break;
					case SDLK_2: pressed.shape = DEMO_CAPSULE; break;
					case SDLK_3: pressed.shape = DEMO_BOX; break;
					case SDLK_TAB: view.overlay = !view.overlay; break;
					case SDLK_r: demo_game_respawn( &game ); break;
					case SDLK_p: paused = !paused; break;
					case SDLK_n: step_once = true; break;
					case SDLK_t:
						// The tour from the start, in the window.
						demo_game_shutdown( &game );
						if ( demo_game_init( &game, map ) == false )
						{
							return 1;
						}
						demo_tour_start( &tour );
						touring = true;
						demo_view_follow( &view, &game, true );
						break;
					default: break;
				}
			}
			else if ( event.type == SDL_MOUSEBUTTONDOWN )
			{
				pressed.fan = pressed.fan || event.button.button == SDL_BUTTON_LEFT;
				pressed.dash = pressed.dash || event.button.button == SDL_BUTTON_RIGHT;
				pressed.slam = pressed.slam || event.button.button == SDL_BUTTON_MIDDLE;
			}
		}
		Uint64 now = SDL_GetPerformanceCounter();
		accumulator += (double)( now - previous ) / (double)SDL_GetPerformanceFrequency();
		previous = now;
		// Fixed steps: the controller takes dt as a parameter, and the demo keeps it constant.
		for ( int n = 0; ( accumulator >= DEMO_DT && n < 4 && paused == false ) || step_once; ++n )
		{
			demo_input in;
			if ( touring )
			{
				in = demo_tour_input( &tour, &game );
				touring = tour.done == false;
				if ( touring == false )
				{
					demo_tour_summary( &tour, &game, 0.0 );
				}
			}
			else
			{
				const Uint8* keys = SDL_GetKeyboardState( NULL );
				int mx, my;
				SDL_GetMouseState( &mx, &my );
				float lx, ly;
				SDL_RenderWindowToLogical( renderer, mx, my, &lx, &ly );
				memset( &in, 0, sizeof( in ) );
				bool right = keys[SDL_SCANCODE_RIGHT] || keys[SDL_SCANCODE_D];
				bool left = keys[SDL_SCANCODE_LEFT] || keys[SDL_SCANCODE_A];
				bool up = keys[SDL_SCANCODE_UP] || keys[SDL_SCANCODE_W];
				bool down = keys[SDL_SCANCODE_DOWN] || keys[SDL_SCANCODE_S];
				in.move.x = (float)right - (float)left;
				in.move.y = (float)up - (float)down;
				if ( game.player.top_down == false && in.move.y > 0.0f )
				{
					in.move.y = 0.0f; // up is a jump in the platformer
				}
				in.run = ( SDL_GetModState() & KMOD_SHIFT ) != 0;
				in.jump = pressed.jump && game.player.top_down == false;
				in.fan = pressed.fan;
				in.dash = pressed.dash;
				in.slam = pressed.slam;
				in.shape = pressed.shape;
				in.aim = demo_view_to_world( &view, lx, ly );
				pressed = ( window_input ){ false, false, false, false, -1 };
			}
			demo_game_step( &game, &in );
			accumulator -= DEMO_DT;
			step_once = false;
		}
		if ( accumulator > 4.0 * DEMO_DT )
		{
			accumulator = 0.0; // after a pause or a slow frame: no catching up
		}
		view.caption = touring ? ( tour.caption != NULL ? tour.caption : "" ) : NULL;
		demo_view_follow( &view, &game, false );
		demo_view_draw( &view, &game );
		SDL_RenderPresent( renderer );
	}
	demo_view_shutdown( &view );
	demo_game_shutdown( &game );
	SDL_DestroyRenderer( renderer );
	SDL_DestroyWindow( window );
	return 0;
}

int main( int argc, char** argv )
{
	bool headless = getenv( "DISPLAY" ) == NULL && getenv( "WAYLAND_DISPLAY" ) == NULL;
	const char* folder = "kcc_demo_frames";
	const char* map = NULL;
	const char* pictures = NULL;
	bool tour = false, overlay = false;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--headless" ) == 0 )
		{
			headless = true;
		}
		else if ( strcmp( argv[i], "--tour" ) == 0 )
		{
			tour = true;
		}
		else if ( strcmp( argv[i], "--overlay" ) == 0 )
		{
			overlay = true;
		}
		else if ( strcmp( argv[i], "--out" ) == 0 && i + 1 < argc )
		{
			folder = argv[++i];
		}
		else if ( strcmp( argv[i], "--map" ) == 0 && i + 1 < argc )
		{
			map = argv[++i];
		}
		else if ( strcmp( argv[i], "--pictures" ) == 0 && i + 1 < argc )
		{
			pictures = argv[++i];
		}
		else
		{
			printf( "usage: %s [--tour] [--headless] [--overlay] [--out FOLDER] [--map FILE.tmj] [--pictures FOLDER]\n"
					"  a window when there is a display (--tour: it plays the tour first); otherwise (or --headless)\n"
					"  the scripted tour, its frames written as PNG to FOLDER (default kcc_demo_frames);\n"
					"  --overlay starts in the physics-debug view (Tab switches it in the window);\n"
					"  --pictures renders the user guide's pictures into FOLDER\n",
					argv[0] );
			return strcmp( argv[i], "--help" ) == 0 ? 0 : 2;
		}
	}
	if ( pictures != NULL || headless )
	{
		// The software renderer needs no video driver at all: this runs on a server.
		SDL_Init( 0 );
	}
	else if ( SDL_Init( SDL_INIT_VIDEO ) != 0 )
	{
		fprintf( stderr, "demo: no display (%s): playing the tour headless\n", SDL_GetError() );
		headless = true;
		SDL_Init( 0 );
	}
	map = find_map( map );
	int status;
	if ( pictures != NULL )
	{
		status = demo_render_pictures( map, pictures );
	}
	else
	{
		status = headless ? run_headless_tour( map, folder, overlay ) : run_window( map, tour, overlay );
	}
	SDL_Quit();
	return status;
}
