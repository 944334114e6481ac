// SPDX-License-Identifier: MIT
// Drawing the demo with SDL2's renderer (a window's, or the software renderer on a surface when headless): the
// level, characters and attacks through kcc2d's debug-draw interface, text with SDL2_ttf, the HUD and the legend.
#pragma once

#include "game.h"

#include <SDL.h>
#include <SDL_ttf.h>

#define DEMO_TEXT_CACHE 256

typedef struct demo_text
{
	char text[96];
	kcc_color color;
	int font;
	SDL_Texture* texture;
	int w, h;
	int last_used;
} demo_text;

typedef struct demo_view
{
	SDL_Renderer* renderer;
	int width, height;       ///< pixels
	float scale;             ///< pixels per world unit
	float zoom;              ///< the scale in the platformer (the top-down room is fitted to the screen)
	vec2s center;            ///< world point at the middle of the screen
	float line_width;        ///< pixels, for the segments drawn next
	TTF_Font* fonts[2];      ///< 0: the HUD, 1: labels in the world (NULL: no text)
	int font_for_world_text; ///< which font draw_text uses
	demo_text cache[DEMO_TEXT_CACHE];
	int frame;
	kcc_debug_draw draw;     ///< kcc2d's debug draw, its callbacks drawing here
	bool overlay;            ///< the debug overlay: paths, contacts, normals, flags, zone events
	bool hud;                ///< the HUD panels
	bool legend;             ///< the overlay's legend (with the overlay)
	bool cut_labels;         ///< level labels cut by the screen's edge are drawn (not in the small pictures)
	const char* caption;     ///< a line at the bottom (the tour's current step), or NULL
	const demo_game* game;   ///< the game being drawn (names for the overlay's labels)
} demo_view;

/// A TrueType font file to draw text with: $KCC_DEMO_FONT, the font CMake found, or common system paths. NULL when
/// there is none (then no text is drawn).
const char* demo_find_font( void );

/// scale: pixels per world unit in the platformer.
bool demo_view_init( demo_view* v, SDL_Renderer* renderer, int width, int height, float scale );
void demo_view_shutdown( demo_view* v );
/// Moves the camera toward the player (snap: at once), kept inside the map.
void demo_view_follow( demo_view* v, const demo_game* g, bool snap );
/// Draws a whole frame of the game.
void demo_view_draw( demo_view* v, const demo_game* g );
/// World to screen.
SDL_FPoint demo_view_to_screen( const demo_view* v, vec2s p );
vec2s demo_view_to_world( const demo_view* v, float x, float y );
/// Text in screen pixels, top-left at (x, y), with a dark shadow; font 0 or 1. Returns its width.
int demo_view_text( demo_view* v, int font, float x, float y, const char* text, kcc_color color );
/// The debug overlay's colours, named, along the bottom of the screen.
void demo_view_legend( demo_view* v );
/// Colours of a space's shape by its role: a zone (sensor) in zone's colour, one-way, pushable, moving (on a
/// kinematic body), solid. False for characters (DEMO_CHARACTER_CATEGORY), which are drawn with their state.
bool demo_shape_colors( const cpShape* shape, cpBitmask one_way, cpBitmask pushable, kcc_color zone, kcc_color* line,
						kcc_color* fill );
/// A filled rectangle in screen pixels.
void demo_view_panel( demo_view* v, float x, float y, float w, float h, kcc_color color );
