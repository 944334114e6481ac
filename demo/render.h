// SPDX-License-Identifier: MIT
// Drawing the demo with SDL2's renderer (a window's, or the software renderer on a surface when headless): the game
// look (look.c) or the physics-debug view (kcc2d's debug-draw interface), labels placed by labels.c, text with
// SDL2_ttf, and the HUD beside the world, never over it.
#pragma once

#include "game.h"

#include <SDL.h>
#include <SDL_ttf.h>

#define DEMO_TEXT_CACHE 256
#define DEMO_MAX_LABELS 48
#define DEMO_LABEL_LINES 6
#define DEMO_MAX_OBSTACLES 1024

typedef struct demo_text
{
	char text[96];
	kcc_color color;
	int font;
	SDL_Texture* texture;
	int w, h;
	int last_used;
} demo_text;

/// A few lines of text that move together, and what they name (a rectangle they must not cover).
typedef struct demo_label
{
	char text[DEMO_LABEL_LINES][96];
	kcc_color color[DEMO_LABEL_LINES];
	SDL_FPoint line_at[DEMO_LABEL_LINES]; ///< each line's top-left where it was asked for, screen pixels
	int line_count;
	SDL_FRect rect;      ///< the lines' union where they were asked for
	SDL_FRect subject;   ///< what the label names (w = 0: nothing)
	int owner;           ///< lines of one owner asked for one under the other join one label
	int priority;        ///< lower is placed first (the player's labels, then attacks, then the level's signs)
	bool sign;           ///< a level sign: left out when mostly off the screen
} demo_label;

typedef struct demo_view
{
	SDL_Renderer* renderer;
	int width, height;       ///< pixels
	SDL_Rect viewport;       ///< where the world is drawn: the screen less the HUD, the caption and the legend
	float scale;             ///< pixels per world unit
	float zoom;              ///< the scale in the platformer (the top-down room is fitted to the viewport)
	vec2s center;            ///< world point at the middle of the viewport
	float line_width;        ///< pixels, for the segments drawn next
	TTF_Font* fonts[2];      ///< 0: the HUD, 1: labels in the world (NULL: no text)
	int font_for_world_text; ///< which font draw_text uses
	demo_text cache[DEMO_TEXT_CACHE];
	int frame;
	kcc_debug_draw draw;     ///< kcc2d's debug draw, its callbacks drawing here
	bool overlay;            ///< the physics-debug view: shapes, paths, contacts, normals, flags, zone events
	bool hud;                ///< the HUD panel at the left
	bool legend;             ///< the overlay's legend (with the overlay)
	int reserved_top;        ///< pixels at the top kept for a title (the guide's picture)
	bool immediate_text;     ///< world text drawn where asked (the small diagrams), not queued for the layout
	const char* caption;     ///< a line at the bottom (the tour's current step), or NULL
	const demo_game* game;   ///< the game being drawn (names for the overlay's labels)

	// Labels of this frame, placed at its end (labels.c), and what they should not cover.
	demo_label labels[DEMO_MAX_LABELS];
	int label_count;
	int label_owner;         ///< the owner of the labels asked for next
	int label_priority;
	SDL_FRect label_subject; ///< the subject of the labels asked for next
	SDL_FRect obstacles[DEMO_MAX_OBSTACLES];
	int obstacle_count;
	int character_obstacles; ///< the first obstacles: the characters and the attack, which no label should cover
	bool record_obstacles;   ///< segments and polygons drawn now are obstacles for the labels
	SDL_FRect player_box;    ///< no label covers the player
	// What the layout did, over every frame drawn (the headless tour checks them).
	int labels_placed;
	int labels_cut;          ///< not whole inside the viewport (never expected)
	int labels_on_player;    ///< over the player (never expected)
	int labels_on_subject;   ///< over what they name (never expected)
	int labels_on_characters; ///< over another character or the attack (never expected)
	int labels_on_labels;    ///< over another label (never expected)
} demo_view;

/// A TrueType font file to draw text with: $KCC_DEMO_FONT, the font CMake found, or common system paths. NULL when
/// there is none (then no text is drawn).
const char* demo_find_font( void );

/// scale: pixels per world unit in the platformer.
bool demo_view_init( demo_view* v, SDL_Renderer* renderer, int width, int height, float scale );
void demo_view_shutdown( demo_view* v );
/// Moves the camera toward the player (snap: at once), kept inside the map.
void demo_view_follow( demo_view* v, const demo_game* g, bool snap );
/// Draws a whole frame of the game: the game look, or the physics-debug view when v->overlay.
void demo_view_draw( demo_view* v, const demo_game* g );
/// World to screen, and back.
SDL_FPoint demo_view_to_screen( const demo_view* v, vec2s p );
vec2s demo_view_to_world( const demo_view* v, float x, float y );
/// A world box on the screen.
SDL_FRect demo_view_box( const demo_view* v, kcc_aabb box );
/// Text in screen pixels, top-left at (x, y), with a dark shadow; font 0 or 1. Returns its width.
int demo_view_text( demo_view* v, int font, float x, float y, const char* text, kcc_color color );
/// The size of a text in a font (0 x 0 without fonts).
void demo_view_text_size( const demo_view* v, int font, const char* text, int* w, int* h );
/// The debug overlay's colours, named, along the bottom of the screen.
void demo_view_legend( demo_view* v );
/// Colours of a space's shape by its role: a zone (sensor) in zone's colour, one-way, pushable, a conveyor belt (a
/// surface velocity), moving (on a kinematic body), solid. False for characters (DEMO_CHARACTER_CATEGORY), which are drawn with their state.
bool demo_shape_colors( const cpShape* shape, cpBitmask one_way, cpBitmask pushable, kcc_color zone, kcc_color* line,
						kcc_color* fill );
/// A filled rectangle in screen pixels.
void demo_view_panel( demo_view* v, float x, float y, float w, float h, kcc_color color );
/// A line of a width in screen pixels.
void demo_view_line( demo_view* v, SDL_FPoint a, SDL_FPoint b, float width, kcc_color color );
/// A zone's colour from its Tiled "color" property (fallback when it has none).
kcc_color demo_zone_color( const demo_game* g, const cpShape* shape, kcc_color fallback );
/// The colour an attack is drawn in.
kcc_color demo_attack_color( demo_attack_kind kind );
/// An obstacle for this frame's labels (screen pixels).
void demo_view_obstacle( demo_view* v, SDL_FRect r );

// labels.c: the frame's labels, queued while the world is drawn, placed and drawn at its end.
/// Queues one line of world text at a screen point (top-left), with the view's current owner, subject and priority.
void demo_labels_add( demo_view* v, SDL_FPoint at, const char* text, kcc_color color, bool sign );
/// Places every queued label (inside the viewport, off the player, its subject, obstacles and each other) and draws
/// them; empties the queue.
void demo_labels_flush( demo_view* v );

// look.c: the game look.
/// The level, characters and attacks drawn as a small game: sky, tiles, planks, platforms, crates, tinted zones,
/// characters with eyes.
void demo_look_draw( demo_view* v, const demo_game* g );
