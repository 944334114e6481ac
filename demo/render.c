// SPDX-License-Identifier: MIT
// The demo's drawing: kcc2d's debug-draw callbacks on an SDL_Renderer, the physics-debug view (the level,
// characters, attacks and kcc_debug_draw_move's overlay), the labels every view shares, and the HUD.
#include "render.h"

#include <stdio.h>
#include <string.h>

static kcc_color rgba( uint8_t r, uint8_t g, uint8_t b, uint8_t a )
{
	kcc_color c = { r, g, b, a };
	return c;
}

static SDL_Color sdl_color( kcc_color c )
{
	SDL_Color s = { c.r, c.g, c.b, c.a };
	return s;
}

#define HUD_WIDTH 330.0f   // the HUD panel at the left of the world
#define CAPTION_HEIGHT 28  // the tour's caption under the world
#define LEGEND_HEIGHT 26   // the overlay's legend under that

static float mid_x( const demo_view* v )
{
	return (float)v->viewport.x + 0.5f * (float)v->viewport.w;
}

static float mid_y( const demo_view* v )
{
	return (float)v->viewport.y + 0.5f * (float)v->viewport.h;
}

SDL_FPoint demo_view_to_screen( const demo_view* v, vec2s p )
{
	SDL_FPoint s = { ( p.x - v->center.x ) * v->scale + mid_x( v ), mid_y( v ) - ( p.y - v->center.y ) * v->scale };
	return s;
}

vec2s demo_view_to_world( const demo_view* v, float x, float y )
{
	return kcc_v2( ( x - mid_x( v ) ) / v->scale + v->center.x, ( mid_y( v ) - y ) / v->scale + v->center.y );
}

SDL_FRect demo_view_box( const demo_view* v, kcc_aabb box )
{
	SDL_FPoint a = demo_view_to_screen( v, kcc_v2( box.min.x, box.max.y ) );
	SDL_FPoint b = demo_view_to_screen( v, kcc_v2( box.max.x, box.min.y ) );
	SDL_FRect r = { a.x, a.y, b.x - a.x, b.y - a.y };
	return r;
}

void demo_view_obstacle( demo_view* v, SDL_FRect r )
{
	if ( v->obstacle_count < DEMO_MAX_OBSTACLES )
	{
		v->obstacles[v->obstacle_count++] = r;
	}
}

// Where the world goes: the screen less the HUD panel at the left, the caption and the legend at the bottom (and a
// title at the top).
static void layout_viewport( demo_view* v )
{
	int left = v->hud ? (int)HUD_WIDTH : 0;
	int bottom = ( v->caption != NULL ? CAPTION_HEIGHT : 0 ) + ( v->overlay && v->legend ? LEGEND_HEIGHT : 0 );
	v->viewport = ( SDL_Rect ){ left, v->reserved_top, v->width - left, v->height - bottom - v->reserved_top };
}

// ---------------------------------------------------------------------------------------------------------------
// Primitives in screen pixels

void demo_view_line( demo_view* v, SDL_FPoint a, SDL_FPoint b, float width, kcc_color c )
{
	float dx = b.x - a.x, dy = b.y - a.y;
	float length = sqrtf( dx * dx + dy * dy );
	if ( length < 1.0e-3f )
	{
		return;
	}
	// A quad of the line's width (SDL's own lines are one pixel wide).
	float nx = -dy / length * 0.5f * width, ny = dx / length * 0.5f * width;
	SDL_Color color = sdl_color( c );
	SDL_Vertex q[4] = {
		{ { a.x + nx, a.y + ny }, color, { 0, 0 } },
		{ { b.x + nx, b.y + ny }, color, { 0, 0 } },
		{ { b.x - nx, b.y - ny }, color, { 0, 0 } },
		{ { a.x - nx, a.y - ny }, color, { 0, 0 } },
	};
	const int indices[6] = { 0, 1, 2, 0, 2, 3 };
	SDL_RenderGeometry( v->renderer, NULL, q, 4, indices, 6 );
}

void demo_view_panel( demo_view* v, float x, float y, float w, float h, kcc_color color )
{
	SDL_SetRenderDrawColor( v->renderer, color.r, color.g, color.b, color.a );
	SDL_FRect r = { x, y, w, h };
	SDL_RenderFillRectF( v->renderer, &r );
}

static demo_text* cached_text( demo_view* v, int font, const char* text, kcc_color color )
{
	demo_text* oldest = v->cache;
	for ( int i = 0; i < DEMO_TEXT_CACHE; ++i )
	{
		demo_text* t = v->cache + i;
		if ( t->texture != NULL && t->font == font && memcmp( &t->color, &color, sizeof( color ) ) == 0 &&
			 strcmp( t->text, text ) == 0 )
		{
			t->last_used = v->frame;
			return t;
		}
		oldest = t->last_used < oldest->last_used ? t : oldest;
	}
	SDL_Surface* surface = TTF_RenderUTF8_Blended( v->fonts[font], text, sdl_color( color ) );
	if ( surface == NULL )
	{
		return NULL;
	}
	if ( oldest->texture != NULL )
	{
		SDL_DestroyTexture( oldest->texture );
	}
	oldest->texture = SDL_CreateTextureFromSurface( v->renderer, surface );
	oldest->w = surface->w;
	oldest->h = surface->h;
	SDL_FreeSurface( surface );
	snprintf( oldest->text, sizeof( oldest->text ), "%s", text );
	oldest->color = color;
	oldest->font = font;
	oldest->last_used = v->frame;
	return oldest->texture != NULL ? oldest : NULL;
}

void demo_view_text_size( const demo_view* v, int font, const char* text, int* w, int* h )
{
	*w = 0;
	*h = 0;
	if ( v->fonts[font] != NULL && text[0] != '\0' )
	{
		TTF_SizeUTF8( v->fonts[font], text, w, h );
	}
}

int demo_view_text( demo_view* v, int font, float x, float y, const char* text, kcc_color color )
{
	if ( v->fonts[font] == NULL || text[0] == '\0' )
	{
		return 0;
	}
	demo_text* shadow = cached_text( v, font, text, rgba( 0, 0, 0, 200 ) );
	demo_text* t = cached_text( v, font, text, color );
	if ( t == NULL || shadow == NULL )
	{
		return 0;
	}
	SDL_Rect s = { (int)x + 1, (int)y + 1, shadow->w, shadow->h };
	SDL_RenderCopy( v->renderer, shadow->texture, NULL, &s );
	SDL_Rect r = { (int)x, (int)y, t->w, t->h };
	SDL_RenderCopy( v->renderer, t->texture, NULL, &r );
	return t->w;
}

// ---------------------------------------------------------------------------------------------------------------
// kcc2d's debug-draw callbacks: five of them; circles, capsules and arcs come as outlines (the library's fallback).

static void draw_segment( vec2s a, vec2s b, kcc_color color, void* context )
{
	demo_view* v = context;
	SDL_FPoint sa = demo_view_to_screen( v, a ), sb = demo_view_to_screen( v, b );
	demo_view_line( v, sa, sb, v->line_width, color );
	if ( v->record_obstacles )
	{
		float x0 = fminf( sa.x, sb.x ), y0 = fminf( sa.y, sb.y );
		SDL_FRect box = { x0 - 1.0f, y0 - 1.0f, fabsf( sb.x - sa.x ) + 2.0f, fabsf( sb.y - sa.y ) + 2.0f };
		demo_view_obstacle( v, box );
	}
}

static void draw_polygon( const vec2s* points, int count, kcc_color color, void* context )
{
	for ( int i = 0; i < count; ++i )
	{
		draw_segment( points[i], points[( i + 1 ) % count], color, context );
	}
}

static void draw_solid_polygon( const vec2s* points, int count, kcc_color color, void* context )
{
	demo_view* v = context;
	SDL_Vertex vertices[KCC_DEBUG_DRAW_MAX_POINTS];
	int indices[3 * KCC_DEBUG_DRAW_MAX_POINTS];
	count = count < KCC_DEBUG_DRAW_MAX_POINTS ? count : KCC_DEBUG_DRAW_MAX_POINTS;
	if ( count < 3 )
	{
		return;
	}
	for ( int i = 0; i < count; ++i )
	{
		vertices[i] = ( SDL_Vertex ){ demo_view_to_screen( v, points[i] ), sdl_color( color ), { 0, 0 } };
	}
	// The outline is star-shaped from its first point (debug_draw.h): a fan from it fills it.
	int n = 0;
	for ( int i = 1; i + 1 < count; ++i )
	{
		indices[n++] = 0;
		indices[n++] = i;
		indices[n++] = i + 1;
	}
	SDL_RenderGeometry( v->renderer, NULL, vertices, count, indices, n );
	if ( v->record_obstacles )
	{
		SDL_FPoint lo = vertices[0].position, hi = lo;
		for ( int i = 1; i < count; ++i )
		{
			lo = ( SDL_FPoint ){ fminf( lo.x, vertices[i].position.x ), fminf( lo.y, vertices[i].position.y ) };
			hi = ( SDL_FPoint ){ fmaxf( hi.x, vertices[i].position.x ), fmaxf( hi.y, vertices[i].position.y ) };
		}
		demo_view_obstacle( v, ( SDL_FRect ){ lo.x, lo.y, hi.x - lo.x, hi.y - lo.y } );
	}
}

static void draw_point( vec2s p, float size, kcc_color color, void* context )
{
	demo_view* v = context;
	SDL_FPoint s = demo_view_to_screen( v, p );
	demo_view_panel( v, s.x - 0.5f * size, s.y - 0.5f * size, size, size, color );
}

static void draw_text( vec2s p, const char* text, kcc_color color, void* context )
{
	demo_view* v = context;
	SDL_FPoint s = demo_view_to_screen( v, p );
	if ( v->immediate_text )
	{
		demo_view_text( v, v->font_for_world_text, s.x, s.y, text, color );
	}
	else
	{
		demo_labels_add( v, s, text, color, false );
	}
}

static void draw_nothing( vec2s a, vec2s b, kcc_color color, void* context )
{
	(void)a;
	(void)b;
	(void)color;
	(void)context;
}

static const char* name_of( const void* shape, void* context )
{
	const demo_view* v = context;
	return v->game != NULL ? demo_shape_name( v->game, shape ) : NULL;
}

// ---------------------------------------------------------------------------------------------------------------
// Setup

const char* demo_find_font( void )
{
	static const char* candidates[] = {
		NULL, // $KCC_DEMO_FONT
#ifdef KCC_DEMO_FONT_PATH
		KCC_DEMO_FONT_PATH,
#endif
		"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
		"/usr/share/fonts/TTF/DejaVuSans.ttf",
		"/usr/share/fonts/dejavu/DejaVuSans.ttf",
		"/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
		"/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
		"/Library/Fonts/Arial.ttf",
		"C:/Windows/Fonts/arial.ttf",
	};
	candidates[0] = getenv( "KCC_DEMO_FONT" );
	for ( size_t i = 0; i < sizeof( candidates ) / sizeof( candidates[0] ); ++i )
	{
		SDL_RWops* file = candidates[i] != NULL ? SDL_RWFromFile( candidates[i], "rb" ) : NULL;
		if ( file != NULL )
		{
			SDL_RWclose( file );
			return candidates[i];
		}
	}
	return NULL;
}

bool demo_view_init( demo_view* v, SDL_Renderer* renderer, int width, int height, float scale )
{
	memset( v, 0, sizeof( *v ) );
	v->renderer = renderer;
	v->width = width;
	v->height = height;
	v->scale = scale;
	v->zoom = scale;
	v->line_width = 1.0f;
	v->hud = true;
	v->legend = true;
	v->viewport = ( SDL_Rect ){ 0, 0, width, height };
	SDL_SetRenderDrawBlendMode( renderer, SDL_BLENDMODE_BLEND );
	const char* font = demo_find_font();
	if ( font != NULL && TTF_Init() == 0 )
	{
		v->fonts[0] = TTF_OpenFont( font, 14 );
		v->fonts[1] = TTF_OpenFont( font, 12 );
	}
	if ( v->fonts[0] == NULL || v->fonts[1] == NULL )
	{
		fprintf( stderr, "demo: no font (set KCC_DEMO_FONT to a .ttf file, or install fonts-dejavu-core): no text\n" );
	}
	v->draw = kcc_default_debug_draw();
	v->draw.draw_segment = draw_segment;
	v->draw.draw_polygon = draw_polygon;
	v->draw.draw_solid_polygon = draw_solid_polygon;
	v->draw.draw_point = draw_point;
	v->draw.draw_text = draw_text;
	v->draw.name_of = name_of;
	v->draw.context = v;
	v->draw.arrow_length = 0.6f;
	v->draw.text_height = 16.0f / scale;
	return true;
}

void demo_view_shutdown( demo_view* v )
{
	for ( int i = 0; i < DEMO_TEXT_CACHE; ++i )
	{
		if ( v->cache[i].texture != NULL )
		{
			SDL_DestroyTexture( v->cache[i].texture );
		}
	}
	for ( int i = 0; i < 2; ++i )
	{
		if ( v->fonts[i] != NULL )
		{
			TTF_CloseFont( v->fonts[i] );
		}
	}
	if ( TTF_WasInit() )
	{
		TTF_Quit();
	}
	memset( v, 0, sizeof( *v ) );
}

void demo_view_follow( demo_view* v, const demo_game* g, bool snap )
{
	layout_viewport( v );
	vec2s target = demo_player_position( g );
	if ( g->player.top_down )
	{
		// The whole room in view; a big view also shows the level's signs above and below it.
		vec2s room = glms_vec2_sub( g->room.max, g->room.min );
		float signs = v->viewport.h >= 400 ? 4.0f : 0.0f;
		float fit_w = (float)v->viewport.w / ( room.x + 1.0f );
		float fit_h = (float)v->viewport.h / ( room.y + 1.0f + signs );
		v->scale = fit_w < fit_h ? fit_w : fit_h;
		target = glms_vec2_scale( glms_vec2_add( g->room.min, g->room.max ), 0.5f );
		snap = snap || v->center.x < g->room.min.x;
	}
	else
	{
		snap = snap || v->scale != v->zoom;
		v->scale = v->zoom;
		target.y += 1.5f; // more to see above than below
	}
	v->draw.text_height = 16.0f / v->scale;
	float half_w = 0.5f * (float)v->viewport.w / v->scale, half_h = 0.5f * (float)v->viewport.h / v->scale;
	target.x = target.x < half_w ? half_w : ( target.x > g->size.x - half_w ? g->size.x - half_w : target.x );
	target.y = target.y > g->size.y - half_h ? g->size.y - half_h : target.y;
	target.y = target.y < half_h - 0.5f ? half_h - 0.5f : target.y;
	v->center = snap ? target : glms_vec2_lerp( v->center, target, 0.15f );
}

// ---------------------------------------------------------------------------------------------------------------
// The level

typedef struct level_style
{
	const demo_view* v;
	const demo_game* g;
	bool sensors; ///< this pass draws the zones (the other one everything else)
} level_style;

static kcc_color parse_color( const char* text, kcc_color fallback )
{
	// Tiled writes #AARRGGBB (or #RRGGBB).
	unsigned value = 0;
	size_t length = text != NULL ? strlen( text ) : 0;
	if ( length < 7 || text[0] != '#' || sscanf( text + 1, "%x", &value ) != 1 )
	{
		return fallback;
	}
	uint8_t a = length == 9 ? (uint8_t)( value >> 24 ) : 255;
	return rgba( (uint8_t)( value >> 16 ), (uint8_t)( value >> 8 ), (uint8_t)value, a );
}

bool demo_shape_colors( const cpShape* shape, cpBitmask one_way, cpBitmask pushable, kcc_color zone, kcc_color* line,
						kcc_color* fill )
{
	cpBitmask categories = cpShapeGetFilter( shape ).categories;
	if ( categories & DEMO_CHARACTER_CATEGORY )
	{
		return false; // characters are drawn with their state
	}
	if ( cpShapeGetSensor( shape ) )
	{
		*fill = zone;
		*line = rgba( zone.r, zone.g, zone.b, 200 );
	}
	else if ( categories & one_way )
	{
		*fill = rgba( 200, 140, 60, 230 );
		*line = rgba( 255, 200, 110, 255 );
	}
	else if ( categories & pushable )
	{
		*fill = rgba( 140, 95, 50, 255 );
		*line = rgba( 215, 160, 90, 255 );
	}
	else if ( cpShapeGetSurfaceVelocity( shape ).x != 0.0 || cpShapeGetSurfaceVelocity( shape ).y != 0.0 )
	{
		*fill = rgba( 52, 60, 70, 255 ); // a conveyor belt: draw_level adds its arrow
		*line = rgba( 120, 220, 225, 255 );
	}
	else if ( cpBodyGetType( cpShapeGetBody( (cpShape*)shape ) ) == CP_BODY_TYPE_KINEMATIC )
	{
		*fill = rgba( 50, 140, 150, 255 );
		*line = rgba( 120, 220, 225, 255 );
	}
	else
	{
		*fill = rgba( 66, 71, 88, 255 );
		*line = rgba( 104, 111, 136, 255 );
	}
	return true;
}

kcc_color demo_zone_color( const demo_game* g, const cpShape* shape, kcc_color fallback )
{
	const kcc_level_object* o = kcc_level_object_of_shape( g->level, shape );
	const kcc_level_property* p = o != NULL ? kcc_level_get_object_property( o, "color" ) : NULL;
	return parse_color( p != NULL ? p->string : NULL, fallback );
}

static bool style_level_shape( const cpShape* shape, kcc_color* line, kcc_color* fill, void* context )
{
	const level_style* s = context;
	const demo_game* g = s->g;
	if ( ( cpShapeGetSensor( shape ) != cpFalse ) != s->sensors )
	{
		return false;
	}
	kcc_color zone = demo_zone_color( g, shape, rgba( 90, 160, 255, 60 ) );
	return demo_shape_colors( shape, g->level_def.one_way_category, g->level_def.pushable_category, zone, line, fill );
}

// Zones under everything else.
static void draw_zones( demo_view* v, const demo_game* g )
{
	// The top-down room's floor under everything.
	if ( g->room.max.x > g->room.min.x )
	{
		SDL_FRect r = demo_view_box( v, g->room );
		demo_view_panel( v, r.x, r.y, r.w, r.h, rgba( 38, 44, 40, 255 ) );
	}
	level_style style = { v, g, true };
	v->line_width = 1.0f;
	kcc_debug_draw_space( &v->draw, g->space, style_level_shape, &style );
}

// A belt's surface velocity as an arrow inside its top, one unit long per 2 u/s (at most its width).
static void draw_belt_arrow( demo_view* v, const cpShape* shape )
{
	cpVect surface = cpShapeGetSurfaceVelocity( shape );
	double speed = cpvlength( surface );
	if ( speed == 0.0 )
	{
		return;
	}
	cpBB bb = cpShapeGetBB( shape );
	vec2s unit = kcc_v2( (float)( surface.x / speed ), (float)( surface.y / speed ) );
	float half = fminf( 0.25f * (float)speed, 0.4f * (float)( bb.r - bb.l ) );
	vec2s mid = kcc_v2( (float)( 0.5 * ( bb.l + bb.r ) ), (float)bb.t - 0.25f );
	vec2s tail = glms_vec2_sub( mid, glms_vec2_scale( unit, half ) );
	vec2s tip = glms_vec2_add( mid, glms_vec2_scale( unit, half ) );
	vec2s back = glms_vec2_sub( tip, glms_vec2_scale( unit, 0.15f ) );
	vec2s side = kcc_v2( -unit.y * 0.1f, unit.x * 0.1f );
	kcc_color color = rgba( 120, 220, 225, 255 );
	draw_segment( tail, tip, color, v );
	draw_segment( tip, glms_vec2_add( back, side ), color, v );
	draw_segment( tip, glms_vec2_sub( back, side ), color, v );
}

static void draw_level( demo_view* v, const demo_game* g )
{
	level_style style = { v, g, false };
	v->line_width = 1.0f;
	kcc_debug_draw_space( &v->draw, g->space, style_level_shape, &style );
	// Crates get a cross, so that their motion shows; conveyor belts an arrow along their surface velocity.
	for ( int i = 0; i < kcc_level_object_count( g->level ); ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( g->level, i );
		for ( int k = 0; k < o->shape_count; ++k )
		{
			draw_belt_arrow( v, o->shapes[k] );
		}
		if ( o->kind == KCC_LEVEL_CRATE && o->shape_count > 0 )
		{
			cpBB bb = cpShapeGetBB( o->shapes[0] );
			kcc_color c = rgba( 215, 160, 90, 255 );
			draw_segment( kcc_v2( (float)bb.l, (float)bb.b ), kcc_v2( (float)bb.r, (float)bb.t ), c, v );
			draw_segment( kcc_v2( (float)bb.l, (float)bb.t ), kcc_v2( (float)bb.r, (float)bb.b ), c, v );
		}
	}
}

static void draw_platform_paths( demo_view* v, const demo_game* g )
{
	v->line_width = 1.0f;
	for ( int i = 0; i < kcc_level_platform_count( g->level ); ++i )
	{
		const kcc_level_platform* p = kcc_level_get_platform( g->level, i );
		for ( int k = 0; k + 1 < p->point_count; ++k )
		{
			vec2s a = glms_vec2_add( p->start, glms_vec2_sub( p->points[k], p->points[0] ) );
			vec2s b = glms_vec2_add( p->start, glms_vec2_sub( p->points[k + 1], p->points[0] ) );
			draw_segment( a, b, rgba( 120, 220, 225, 120 ), v );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Characters and attacks (the debug view's)

static kcc_color player_color( demo_shape_kind k )
{
	static const kcc_color colors[DEMO_SHAPE_COUNT] = {
		{ 80, 200, 120, 255 }, // circle
		{ 80, 150, 245, 255 }, // capsule
		{ 235, 185, 70, 255 }, // rounded box
	};
	return colors[k];
}

static void draw_characters( demo_view* v, const demo_game* g )
{
	v->line_width = 1.5f;
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		const demo_enemy* e = g->enemies + i;
		kcc_shape s = demo_enemy_world_shape( e );
		bool flash = e->flash > 0 && ( e->flash / 3 ) % 2 == 0;
		kcc_color fill = flash ? rgba( 255, 255, 255, 255 ) : rgba( 205, 70, 60, 255 );
		if ( e->kind == DEMO_BAT )
		{
			// Flying: its shadow on the ground below it, the bat drawn above by its height.
			kcc_shape shadow = kcc_make_circle( e->position, 0.3f );
			kcc_debug_draw_shape( &v->draw, &shadow, rgba( 0, 0, 0, 0 ), rgba( 0, 0, 0, 110 ) );
			float height = 0.5f * ( e->z_min + e->z_max );
			s = kcc_shape_translate( &e->shape, kcc_v2( e->position.x, e->position.y + height ) );
			fill = flash ? fill : rgba( 160, 90, 220, 255 );
		}
		kcc_debug_draw_shape( &v->draw, &s, rgba( 255, 220, 210, 255 ), fill );
	}
	const demo_player* p = &g->player;
	kcc_shape s = demo_player_shape( g );
	kcc_debug_draw_shape( &v->draw, &s, rgba( 255, 255, 255, 255 ), player_color( p->shape_kind ) );
}

static void draw_attack_shape( demo_view* v, const demo_game* g )
{
	const demo_attack* a = &g->attack;
	if ( a->kind == DEMO_ATTACK_NONE )
	{
		return;
	}
	v->line_width = 2.0f;
	kcc_debug_draw fan_draw = v->draw;
	// Seed 001: the fan drawn as its centre point and arc points every degree.
	fan_draw.arc_step = 1.0f * DEMO_DEGREES;
	kcc_color line = demo_attack_color( a->kind );
	kcc_debug_draw_shape( &fan_draw, &a->shape, line, rgba( line.r, line.g, line.b, 70 ) );
}

static void draw_overlay( demo_view* v, const demo_game* g )
{
	draw_platform_paths( v, g );
	v->line_width = 2.0f;
	v->font_for_world_text = 1;
	v->record_obstacles = true;
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		const demo_enemy* e = g->enemies + i;
		if ( e->controller != NULL )
		{
			kcc_debug_draw quiet = v->draw;
			quiet.draw_text = NULL; // enemies: no labels, they would crowd the picture
			kcc_debug_draw_move( &quiet, e->controller, e->wanted, &e->result );
		}
	}
	v->label_owner += 1;
	kcc_debug_draw_move( &v->draw, g->player.controller, g->player.wanted, &g->player.result );
	v->record_obstacles = false;
}

// ---------------------------------------------------------------------------------------------------------------
// The labels both views show: the level's signs, the attack's, the player's flags and zone events, a notice.

kcc_color demo_attack_color( demo_attack_kind kind )
{
	switch ( kind )
	{
		case DEMO_ATTACK_DASH: return rgba( 120, 200, 255, 255 );
		case DEMO_ATTACK_SLAM: return rgba( 255, 130, 70, 255 );
		default: return rgba( 255, 220, 90, 255 );
	}
}

static void queue_signs( demo_view* v, const demo_game* g )
{
	v->label_priority = 3;
	v->label_subject = ( SDL_FRect ){ 0, 0, 0, 0 };
	for ( int i = 0; i < kcc_level_object_count( g->level ); ++i )
	{
		const kcc_level_object* o = kcc_level_get_object( g->level, i );
		if ( strcmp( o->class_name, "label" ) == 0 )
		{
			v->label_owner += 1;
			demo_labels_add( v, demo_view_to_screen( v, o->position ), o->name, rgba( 215, 220, 232, 255 ), true );
		}
	}
}

static void queue_attack_label( demo_view* v, const demo_game* g )
{
	const demo_attack* a = &g->attack;
	if ( a->kind == DEMO_ATTACK_NONE )
	{
		return;
	}
	char label[96];
	if ( a->kind == DEMO_ATTACK_FAN )
	{
		snprintf( label, sizeof( label ), "fan: atan2 %.0f deg, 100 deg wide", (double)( a->angle / DEMO_DEGREES ) );
	}
	else if ( a->kind == DEMO_ATTACK_DASH )
	{
		snprintf( label, sizeof( label ), "dash: capsule" );
	}
	else
	{
		snprintf( label, sizeof( label ), "slam: volume z %.1f..%.1f", (double)a->volume.z_min,
				  (double)a->volume.z_max );
	}
	if ( a->hit_count > 0 || a->missed_by_height > 0 )
	{
		size_t n = strlen( label );
		snprintf( label + n, sizeof( label ) - n, ": %d hit", a->hit_count );
	}
	// Named: the attack's shape; asked for above its top-left corner.
	kcc_aabb box = kcc_shape_bounds( &a->shape );
	v->label_subject = demo_view_box( v, box );
	v->label_priority = 1;
	v->label_owner += 1;
	int w = 0, h = 0;
	demo_view_text_size( v, 1, label, &w, &h );
	SDL_FPoint at = { v->label_subject.x, v->label_subject.y - (float)h - 4.0f };
	demo_labels_add( v, at, label, demo_attack_color( a->kind ), false );
}

static void mark_solid( cpShape* shape, void* context )
{
	demo_view* v = context;
	bool character = ( cpShapeGetFilter( shape ).categories & DEMO_CHARACTER_CATEGORY ) != 0;
	if ( cpShapeGetSensor( shape ) == cpFalse && character == false )
	{
		cpBB bb = cpShapeGetBB( shape );
		kcc_aabb box = { kcc_v2( (float)bb.l, (float)bb.b ), kcc_v2( (float)bb.r, (float)bb.t ) };
		demo_view_obstacle( v, demo_view_box( v, box ) );
	}
}

// What the labels should not cover: the player (never), the other characters, the attack, and the level's solids
// around the player (its "ceiling" label is not written on the ceiling it names).
static void mark_characters( demo_view* v, const demo_game* g )
{
	kcc_shape player = demo_player_shape( g );
	kcc_aabb around = kcc_shape_bounds( &player );
	v->player_box = demo_view_box( v, around );
	if ( g->attack.kind != DEMO_ATTACK_NONE )
	{
		demo_view_obstacle( v, demo_view_box( v, kcc_shape_bounds( &g->attack.shape ) ) );
	}
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		const demo_enemy* e = g->enemies + i;
		kcc_shape s = demo_enemy_world_shape( e );
		kcc_aabb b = kcc_shape_bounds( &s );
		if ( e->kind == DEMO_BAT )
		{
			b.max.y += e->z_max; // drawn above its shadow by its height
		}
		demo_view_obstacle( v, demo_view_box( v, b ) );
	}
	v->character_obstacles = v->obstacle_count;
	cpBB near = cpBBNew( around.min.x - 3.0f, around.min.y - 1.0f, around.max.x + 3.0f, around.max.y + 3.0f );
	cpSpaceBBQuery( g->space, near, CP_SHAPE_FILTER_ALL, mark_solid, v );
}

// The player's flags and zone events (kcc_debug_draw_move's labels without its lines), and the game's notice.
static void queue_player_labels( demo_view* v, const demo_game* g )
{
	v->label_subject = v->player_box;
	v->label_priority = 0;
	v->label_owner += 1;
	if ( v->overlay == false )
	{
		kcc_debug_draw text_only = v->draw;
		text_only.draw_segment = draw_nothing;
		text_only.draw_polygon = NULL;
		text_only.draw_solid_polygon = NULL;
		text_only.draw_point = NULL;
		kcc_debug_draw_move( &text_only, g->player.controller, g->player.wanted, &g->player.result );
	}
	if ( g->message_timer > 0 )
	{
		v->label_owner += 1;
		int w = 0, h = 0;
		demo_view_text_size( v, 1, g->message, &w, &h );
		SDL_FRect p = v->player_box;
		SDL_FPoint at = { p.x + 0.5f * p.w - 0.5f * (float)w, p.y - 2.0f * (float)h };
		demo_labels_add( v, at, g->message, rgba( 255, 210, 120, 255 ), false );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// HUD

static void flags_text( uint32_t flags, char* out, size_t size )
{
	static const struct
	{
		uint32_t flag;
		const char* name;
	} names[] = {
		{ KCC_ON_FLOOR, "FLOOR" },     { KCC_ON_WALL, "WALL" },       { KCC_ON_CEILING, "CEILING" },
		{ KCC_SNAPPED, "SNAPPED" },    { KCC_STEPPED, "STEPPED" },    { KCC_DEPENETRATED, "DEPENETRATED" },
		{ KCC_CRUSHED, "CRUSHED" },    { KCC_PUSHED, "PUSHED" },      { KCC_CORNER_CORRECTED, "CORNER" },
	};
	size_t n = 0;
	out[0] = '\0';
	for ( size_t i = 0; i < sizeof( names ) / sizeof( names[0] ); ++i )
	{
		if ( ( flags & names[i].flag ) && n < size )
		{
			n += (size_t)snprintf( out + n, size - n, "%s%s", n > 0 ? " " : "", names[i].name );
		}
	}
}

void demo_view_legend( demo_view* v )
{
	const struct
	{
		const char* name;
		kcc_color color;
	} legend[] = {
		{ "hit, normal", v->draw.hit_color },   { "wanted motion", v->draw.motion_color },
		{ "slide tangent", v->draw.tangent_color }, { "path", v->draw.path_color },
		{ "floor normal", v->draw.floor_color }, { "zone event", v->draw.event_color },
	};
	float left = (float)v->viewport.x, ly = (float)v->height - 26.0f, lx = left + 10.0f;
	demo_view_panel( v, left + 4.0f, ly - 6.0f, (float)v->width - left - 8.0f, 26.0f, rgba( 10, 12, 18, 185 ) );
	for ( size_t i = 0; i < sizeof( legend ) / sizeof( legend[0] ); ++i )
	{
		demo_view_panel( v, lx, ly + 3.0f, 14.0f, 4.0f, legend[i].color );
		lx += 19.0f;
		lx += (float)demo_view_text( v, 1, lx, ly - 2.0f, legend[i].name, rgba( 235, 238, 245, 255 ) ) + 14.0f;
	}
}

static void draw_hud( demo_view* v, const demo_game* g )
{
	const demo_player* p = &g->player;
	const kcc_move_result* r = &p->result;
	kcc_color white = rgba( 235, 238, 245, 255 ), dim = rgba( 170, 176, 195, 255 ), title = rgba( 255, 230, 120, 255 );
	char line[160], flags[96];
	float x = 12.0f, y = 10.0f, h = 18.0f, small = 16.0f;
	demo_view_panel( v, 0.0f, 0.0f, HUD_WIDTH, (float)v->height, rgba( 14, 16, 24, 255 ) );
	demo_view_panel( v, HUD_WIDTH - 2.0f, 0.0f, 2.0f, (float)v->height, rgba( 50, 56, 74, 255 ) );
	demo_view_text( v, 0, x, y, "kcc2d demo", title );
	snprintf( line, sizeof( line ), "frame %d", g->frame );
	demo_view_text( v, 0, x + 110.0f, y, line, dim );
	snprintf( line, sizeof( line ), "%s, %s%s", demo_shape_kind_name( p->shape_kind ),
			  p->top_down ? "FLOATING (top-down)" : "GROUNDED", p->crouched ? ", crouched" : "" );
	demo_view_text( v, 0, x, y += h + 4.0f, line, white );
	vec2s real = kcc_controller_get_real_velocity( p->controller );
	snprintf( line, sizeof( line ), "speed %.2f u/s (vx %+.2f, vy %+.2f)", (double)glms_vec2_norm( real ),
			  (double)real.x, (double)real.y );
	demo_view_text( v, 0, x, y += h, line, white );
	if ( p->speed_scale < 1.0f )
	{
		snprintf( line, sizeof( line ), "slowed by a zone: x %.2f", (double)p->speed_scale );
		demo_view_text( v, 0, x, y += h, line, rgba( 255, 210, 120, 255 ) );
	}
	flags_text( r->flags, flags, sizeof( flags ) );
	if ( flags[0] == '\0' )
	{
		snprintf( flags, sizeof( flags ), "%s", p->top_down ? "(no contact)" : "(in the air)" );
	}
	snprintf( line, sizeof( line ), "flags: %s", flags );
	demo_view_text( v, 1, x, y += h, line, rgba( 140, 235, 160, 255 ) );
	const char* floor = ( r->flags & KCC_ON_FLOOR ) ? demo_shape_name( g, r->floor_shape ) : NULL;
	snprintf( line, sizeof( line ), "floor: %s", floor != NULL ? floor : "-" );
	demo_view_text( v, 1, x, y += small, line, white );
	int n = snprintf( line, sizeof( line ), "zones:" );
	for ( int i = 0; i < r->sensor_count && n < (int)sizeof( line ); ++i )
	{
		const char* name = demo_shape_name( g, r->sensors[i] );
		n += snprintf( line + n, sizeof( line ) - (size_t)n, " %s", name != NULL ? name : "?" );
	}
	demo_view_text( v, 1, x, y += small, r->sensor_count > 0 ? line : "zones: -", white );
	snprintf( line, sizeof( line ), "hits: fan %d  dash %d  slam %d  (passed under %d)", g->stats.fan_hits,
			  g->stats.dash_hits, g->stats.slam_hits, g->stats.slam_height_misses );
	demo_view_text( v, 1, x, y += small, line, white );
	demo_view_text( v, 0, x, y += h + 6.0f, "events", title );
	y += 2.0f;
	for ( int i = 0; i < g->log_count; ++i )
	{
		demo_view_text( v, 1, x, y += small, g->log[i], dim );
	}

	static const char* controls[] = {
		"A/D or arrows: walk   Shift: run",
		"W / Up / Space: jump   S / Down: crouch",
		"Down + jump: drop through a one-way",
		"mouse: aim   left: fan   right: dash",
		"F or middle: ground slam (dive in the air)",
		"1 2 3: circle, capsule, rounded box",
		"Tab: physics-debug view",
		"R: respawn   T: tour",
		"P: pause   N: next frame   Esc: quit",
	};
	int count = (int)( sizeof( controls ) / sizeof( controls[0] ) );
	y = (float)v->height - 14.0f - small * (float)count - h;
	demo_view_text( v, 0, x, y, "keys", title );
	y += 4.0f;
	for ( int i = 0; i < count; ++i )
	{
		demo_view_text( v, 1, x, y += small, controls[i], dim );
	}
}

// The tour's caption: a strip under the world.
static void draw_caption( demo_view* v )
{
	float x = (float)v->viewport.x, y = (float)( v->viewport.y + v->viewport.h );
	demo_view_panel( v, x, y, (float)v->viewport.w, (float)CAPTION_HEIGHT, rgba( 14, 16, 24, 255 ) );
	demo_view_text( v, 0, x + 12.0f, y + 5.0f, v->caption, rgba( 255, 230, 120, 255 ) );
}

void demo_view_draw( demo_view* v, const demo_game* g )
{
	v->frame += 1;
	v->game = g;
	v->label_count = 0;
	v->obstacle_count = 0;
	layout_viewport( v );
	SDL_SetRenderDrawColor( v->renderer, 24, 27, 36, 255 );
	SDL_RenderClear( v->renderer );
	SDL_RenderSetClipRect( v->renderer, &v->viewport );
	mark_characters( v, g );
	if ( v->overlay )
	{
		draw_zones( v, g );
		// Attacks behind the level: a fan aimed along the ground is cut by the floor, as the eye expects (the hit
		// test itself goes through walls: a game that minds tests a ray to each target).
		draw_attack_shape( v, g );
		draw_level( v, g );
		draw_characters( v, g );
		v->label_subject = v->player_box;
		v->label_priority = 0;
		draw_overlay( v, g );
	}
	else
	{
		demo_look_draw( v, g );
	}
	queue_player_labels( v, g );
	queue_attack_label( v, g );
	queue_signs( v, g );
	demo_labels_flush( v );
	SDL_RenderSetClipRect( v->renderer, NULL );
	if ( v->hud )
	{
		draw_hud( v, g );
	}
	if ( v->caption != NULL )
	{
		draw_caption( v );
	}
	if ( v->overlay && v->legend )
	{
		demo_view_legend( v );
	}
}
