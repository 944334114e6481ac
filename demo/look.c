// SPDX-License-Identifier: MIT
// The demo's game look, drawn procedurally from the level's shapes: a sky with hills, tiles of earth with a grass
// top where nothing stands on them (stone in the top-down room), planks for one-way ledges, metal platforms, wooden
// crates, conveyor belts (any shape with a surface velocity), tinted zones (a flag on a checkpoint, a door on a
// door), and characters with eyes that look where they go.
#include "render.h"

#include <string.h>

typedef enum look_kind
{
	LOOK_NONE = 0, ///< characters: drawn with their state
	LOOK_TILE,     ///< static and solid: earth (stone in the room)
	LOOK_PLANK,    ///< one-way
	LOOK_CRATE,    ///< pushable
	LOOK_PLATFORM, ///< on a kinematic body: the level's platforms and the swing
	LOOK_BELT,     ///< a conveyor belt: a Chipmunk surface velocity
	LOOK_ZONE,     ///< a sensor
} look_kind;

#define LOOK_PASSES 6

static kcc_color rgba( uint8_t r, uint8_t g, uint8_t b, uint8_t a )
{
	kcc_color c = { r, g, b, a };
	return c;
}

static kcc_color shade( kcc_color c, float f )
{
	float r = fminf( 255.0f, (float)c.r * f ), g = fminf( 255.0f, (float)c.g * f ), b = fminf( 255.0f, (float)c.b * f );
	return rgba( (uint8_t)r, (uint8_t)g, (uint8_t)b, c.a );
}

static uint8_t mix_channel( uint8_t a, uint8_t b, float t )
{
	return (uint8_t)( (float)a + ( (float)b - (float)a ) * t );
}

static kcc_color mix( kcc_color a, kcc_color b, float t )
{
	t = t < 0.0f ? 0.0f : ( t > 1.0f ? 1.0f : t );
	return rgba( mix_channel( a.r, b.r, t ), mix_channel( a.g, b.g, t ), mix_channel( a.b, b.b, t ),
				 mix_channel( a.a, b.a, t ) );
}

static SDL_Color sdl( kcc_color c )
{
	SDL_Color s = { c.r, c.g, c.b, c.a };
	return s;
}

// A small deterministic hash: the same tile gets the same pebbles every frame.
static uint32_t hash2( int x, int y )
{
	uint32_t h = (uint32_t)x * 374761393u + (uint32_t)y * 668265263u;
	h = ( h ^ ( h >> 13 ) ) * 1274126177u;
	return h ^ ( h >> 16 );
}

// ---------------------------------------------------------------------------------------------------------------
// Filled shapes with a vertical gradient (top colour at y_top, bottom colour at y_bottom, world units)

#define LOOK_MAX_POINTS 96

static void fill_points( demo_view* v, const vec2s* points, int count, kcc_color top, kcc_color bottom, float y_top,
						 float y_bottom )
{
	SDL_Vertex vertices[LOOK_MAX_POINTS];
	int indices[3 * LOOK_MAX_POINTS];
	count = count < LOOK_MAX_POINTS ? count : LOOK_MAX_POINTS;
	if ( count < 3 )
	{
		return;
	}
	float span = y_top - y_bottom > 1.0e-6f ? y_top - y_bottom : 1.0f;
	for ( int i = 0; i < count; ++i )
	{
		kcc_color c = mix( bottom, top, ( points[i].y - y_bottom ) / span );
		vertices[i] = ( SDL_Vertex ){ demo_view_to_screen( v, points[i] ), sdl( c ), { 0, 0 } };
	}
	// Convex outlines (kcc_shape_outline's): a fan from the first point fills them.
	int n = 0;
	for ( int i = 1; i + 1 < count; ++i )
	{
		indices[n++] = 0;
		indices[n++] = i;
		indices[n++] = i + 1;
	}
	SDL_RenderGeometry( v->renderer, NULL, vertices, count, indices, n );
}

static int outline( const kcc_shape* s, vec2s* points )
{
	return kcc_shape_outline( s, 0.3f, points, LOOK_MAX_POINTS );
}

static void fill_shape( demo_view* v, const kcc_shape* s, kcc_color top, kcc_color bottom )
{
	vec2s points[LOOK_MAX_POINTS];
	int count = outline( s, points );
	kcc_aabb b = kcc_shape_bounds( s );
	fill_points( v, points, count, top, bottom, b.max.y, b.min.y );
}

static void stroke_points( demo_view* v, const vec2s* points, int count, float width, kcc_color color )
{
	for ( int i = 0; i < count && count > 1; ++i )
	{
		demo_view_line( v, demo_view_to_screen( v, points[i] ), demo_view_to_screen( v, points[( i + 1 ) % count] ),
						width, color );
	}
}

static void stroke_shape( demo_view* v, const kcc_shape* s, float width, kcc_color color )
{
	vec2s points[LOOK_MAX_POINTS];
	stroke_points( v, points, outline( s, points ), width, color );
}

// The outline moved inward by d (a convex counter-clockwise outline): the inner face of a bevelled block.
static int inset_points( const vec2s* in, int count, float d, vec2s* out )
{
	for ( int i = 0; i < count; ++i )
	{
		vec2s prev = in[( i + count - 1 ) % count], p = in[i], next = in[( i + 1 ) % count];
		vec2s e0 = glms_vec2_normalize( glms_vec2_sub( p, prev ) );
		vec2s e1 = glms_vec2_normalize( glms_vec2_sub( next, p ) );
		vec2s n0 = kcc_v2( -e0.y, e0.x ), n1 = kcc_v2( -e1.y, e1.x );
		float k = 1.0f + glms_vec2_dot( n0, n1 );
		out[i] = k > 0.2f ? glms_vec2_add( p, glms_vec2_scale( glms_vec2_add( n0, n1 ), d / k ) ) : p;
	}
	return count;
}

static void circle( demo_view* v, vec2s center, float radius, kcc_color color )
{
	kcc_shape c = kcc_make_circle( center, radius );
	fill_shape( v, &c, color, color );
}

// ---------------------------------------------------------------------------------------------------------------
// The background

static float hill_height( float x, float seed )
{
	return 1.2f * sinf( x * 0.21f + seed ) + 0.7f * sinf( x * 0.53f + 2.0f * seed ) + 0.3f * sinf( x * 1.7f );
}

static void draw_sky( demo_view* v, const demo_game* g )
{
	SDL_Rect vp = v->viewport;
	float x0 = (float)vp.x, y0 = (float)vp.y, x1 = (float)( vp.x + vp.w ), y1 = (float)( vp.y + vp.h );
	// Seen from above (the top-down room) the ground around is dark earth; from the side, a sky.
	bool above = g->player.top_down;
	SDL_Color top = sdl( above ? rgba( 34, 40, 34, 255 ) : rgba( 30, 40, 78, 255 ) );
	SDL_Color bottom = sdl( above ? rgba( 44, 50, 42, 255 ) : rgba( 92, 112, 150, 255 ) );
	SDL_Vertex sky[4] = {
		{ { x0, y0 }, top, { 0, 0 } },
		{ { x1, y0 }, top, { 0, 0 } },
		{ { x1, y1 }, bottom, { 0, 0 } },
		{ { x0, y1 }, bottom, { 0, 0 } },
	};
	const int quad[6] = { 0, 1, 2, 0, 2, 3 };
	SDL_RenderGeometry( v->renderer, NULL, sky, 4, quad, 6 );
	if ( above )
	{
		return; // no horizon
	}
	// Two ranges of hills, farther ones slower (parallax), standing on the level's ground line (y 2).
	static const struct
	{
		float parallax, base, seed;
		kcc_color color;
	} ranges[2] = { { 0.2f, 4.5f, 0.0f, { 56, 72, 112, 255 } }, { 0.45f, 2.8f, 1.7f, { 44, 62, 88, 255 } } };
	for ( int r = 0; r < 2; ++r )
	{
		SDL_Vertex strip[2 * 66];
		int indices[6 * 65];
		int n = 0, m = 0;
		float ground = demo_view_to_screen( v, kcc_v2( 0.0f, 2.0f ) ).y;
		for ( int i = 0; i <= 64; ++i )
		{
			float sx = x0 + ( x1 - x0 ) * (float)i / 64.0f;
			float wx = ( sx - x0 ) / v->scale + v->center.x * ranges[r].parallax;
			float h = ranges[r].base + hill_height( wx, ranges[r].seed );
			float sy = ground - h * v->scale * 0.6f;
			strip[n++] = ( SDL_Vertex ){ { sx, sy }, sdl( ranges[r].color ), { 0, 0 } };
			strip[n++] = ( SDL_Vertex ){ { sx, fmaxf( y1, ground ) }, sdl( ranges[r].color ), { 0, 0 } };
			if ( i > 0 )
			{
				int a = n - 4;
				indices[m++] = a;
				indices[m++] = a + 2;
				indices[m++] = a + 1;
				indices[m++] = a + 1;
				indices[m++] = a + 2;
				indices[m++] = a + 3;
			}
		}
		SDL_RenderGeometry( v->renderer, NULL, strip, n, indices, m );
	}
}

// The top-down room's floor: stone slabs.
static void draw_room_floor( demo_view* v, const demo_game* g )
{
	if ( g->room.max.x <= g->room.min.x )
	{
		return;
	}
	for ( int y = (int)floorf( g->room.min.y ); y < (int)ceilf( g->room.max.y ); ++y )
	{
		for ( int x = (int)floorf( g->room.min.x ); x < (int)ceilf( g->room.max.x ); ++x )
		{
			uint32_t h = hash2( x, y );
			kcc_color c = ( ( x + y ) & 1 ) ? rgba( 74, 78, 74, 255 ) : rgba( 66, 70, 67, 255 );
			c = shade( c, 0.94f + 0.08f * (float)( h & 7u ) / 7.0f );
			kcc_aabb cell = { kcc_v2( (float)x, (float)y ), kcc_v2( (float)x + 1.0f, (float)y + 1.0f ) };
			SDL_FRect r = demo_view_box( v, cell );
			demo_view_panel( v, r.x, r.y, r.w, r.h, c );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The level's shapes

typedef struct look_pass
{
	demo_view* v;
	const demo_game* g;
	look_kind kind;
	kcc_aabb visible; ///< the world the viewport shows
} look_pass;

// What a level shape looks like. A new kind of surface gets its kind here and its drawing in draw_shape.
static look_kind kind_of( const demo_game* g, const cpShape* shape )
{
	cpVect belt = cpShapeGetSurfaceVelocity( shape );
	cpBitmask categories = cpShapeGetFilter( shape ).categories;
	if ( categories & DEMO_CHARACTER_CATEGORY )
	{
		return LOOK_NONE;
	}
	if ( cpShapeGetSensor( shape ) )
	{
		return LOOK_ZONE;
	}
	if ( categories & g->level_def.one_way_category )
	{
		return LOOK_PLANK;
	}
	if ( categories & g->level_def.pushable_category )
	{
		return LOOK_CRATE;
	}
	if ( belt.x != 0.0 || belt.y != 0.0 )
	{
		return LOOK_BELT;
	}
	if ( cpBodyGetType( cpShapeGetBody( (cpShape*)shape ) ) == CP_BODY_TYPE_KINEMATIC )
	{
		return LOOK_PLATFORM;
	}
	return LOOK_TILE;
}

static bool in_room( const demo_game* g, kcc_aabb b )
{
	return b.min.x >= g->room.min.x - 1.0f && b.max.x <= g->room.max.x + 1.0f && b.min.y >= g->room.min.y - 1.0f &&
		   b.max.y <= g->room.max.y + 1.0f && g->room.max.x > g->room.min.x;
}

// An edge facing up with nothing solid right on top of most of it: grass grows there.
static bool open_above( const demo_game* g, const cpShape* self, vec2s a, vec2s b, vec2s normal )
{
	cpShapeFilter solid = cpShapeFilterNew( CP_NO_GROUP, CP_ALL_CATEGORIES, g->level_def.solid_category );
	int covered = 0;
	for ( int i = 1; i <= 3; ++i )
	{
		vec2s probe = glms_vec2_add( glms_vec2_lerp( a, b, 0.25f * (float)i ), glms_vec2_scale( normal, 0.08f ) );
		cpPointQueryInfo info;
		cpShape* hit = cpSpacePointQueryNearest( g->space, cpv( probe.x, probe.y ), 0.0, solid, &info );
		covered += hit != NULL && hit != self && cpShapeGetSensor( hit ) == cpFalse &&
				   cpBodyGetType( cpShapeGetBody( hit ) ) == CP_BODY_TYPE_STATIC;
	}
	return covered < 2;
}

static void draw_grass( demo_view* v, vec2s a, vec2s b, vec2s normal )
{
	float depth = 0.16f;
	vec2s down = glms_vec2_scale( normal, -depth );
	vec2s quad[4] = { glms_vec2_add( a, down ), glms_vec2_add( b, down ), b, a };
	kcc_color top = rgba( 104, 178, 76, 255 ), bottom = rgba( 62, 124, 56, 255 );
	fill_points( v, quad, 4, top, bottom, fmaxf( a.y, b.y ), fminf( a.y, b.y ) - depth );
	demo_view_line( v, demo_view_to_screen( v, a ), demo_view_to_screen( v, b ), 2.0f, rgba( 150, 214, 110, 255 ) );
	// Blades: a few small triangles along the edge, the same every frame.
	vec2s along = glms_vec2_sub( b, a );
	float length = glms_vec2_norm( along );
	int blades = (int)( length * 4.0f );
	uint32_t seed = hash2( (int)floorf( a.x * 8.0f ), (int)floorf( a.y * 8.0f ) );
	for ( int i = 0; i < blades; ++i )
	{
		uint32_t h = hash2( (int)seed, i );
		float t = ( (float)i + 0.2f + 0.6f * (float)( h & 255u ) / 255.0f ) / (float)blades;
		vec2s base = glms_vec2_add( a, glms_vec2_scale( along, t ) );
		vec2s side = glms_vec2_scale( along, 0.035f / length );
		float height = 0.06f + 0.07f * (float)( ( h >> 8 ) & 255u ) / 255.0f;
		vec2s tip = glms_vec2_add( base, glms_vec2_scale( normal, height ) );
		vec2s blade[3] = { glms_vec2_sub( base, side ), glms_vec2_add( base, side ), tip };
		fill_points( v, blade, 3, rgba( 150, 214, 110, 255 ), rgba( 104, 178, 76, 255 ), tip.y, base.y );
	}
}

static void draw_tile( look_pass* p, const cpShape* shape, const kcc_shape* world )
{
	demo_view* v = p->v;
	vec2s points[LOOK_MAX_POINTS], inner[LOOK_MAX_POINTS];
	int count = outline( world, points );
	kcc_aabb b = kcc_shape_bounds( world );
	bool stone = in_room( p->g, b );
	kcc_color edge = stone ? rgba( 58, 60, 72, 255 ) : rgba( 70, 46, 34, 255 );
	kcc_color top = stone ? rgba( 128, 132, 148, 255 ) : rgba( 146, 100, 64, 255 );
	kcc_color bottom = stone ? rgba( 98, 102, 118, 255 ) : rgba( 108, 72, 48, 255 );
	fill_points( v, points, count, edge, edge, b.max.y, b.min.y );
	inset_points( points, count, 0.05f, inner );
	fill_points( v, inner, count, top, bottom, b.max.y, b.min.y );
	// A lit top-left rim on the inner face.
	for ( int i = 0; i < count; ++i )
	{
		vec2s e = glms_vec2_sub( inner[( i + 1 ) % count], inner[i] );
		if ( e.x < -1.0e-4f || e.y < -1.0e-4f ) // edges facing up or left (counter-clockwise)
		{
			demo_view_line( v, demo_view_to_screen( v, inner[i] ), demo_view_to_screen( v, inner[( i + 1 ) % count] ),
							1.5f, shade( top, 1.18f ) );
		}
	}
	// Pebbles on the plain tiles.
	if ( count == 4 && b.max.x - b.min.x <= 1.01f && b.max.y - b.min.y <= 1.01f )
	{
		uint32_t h = hash2( (int)floorf( b.min.x ), (int)floorf( b.min.y ) );
		for ( int k = 0; k < 2; ++k, h >>= 10 )
		{
			vec2s at = kcc_v2( b.min.x + 0.2f + 0.6f * (float)( h & 31u ) / 31.0f,
							   b.min.y + 0.2f + 0.5f * (float)( ( h >> 5 ) & 31u ) / 31.0f );
			SDL_FPoint s = demo_view_to_screen( v, at );
			float size = 0.06f * v->scale;
			demo_view_panel( v, s.x, s.y, size, size * 0.7f, shade( bottom, 0.78f ) );
		}
	}
	if ( stone )
	{
		return; // the room is seen from above: no grass
	}
	for ( int i = 0; i < count; ++i )
	{
		vec2s a = points[i], c = points[( i + 1 ) % count];
		vec2s e = glms_vec2_sub( c, a );
		float length = glms_vec2_norm( e );
		vec2s normal = length > 1.0e-6f ? kcc_v2( e.y / length, -e.x / length ) : kcc_v2( 0.0f, 0.0f );
		// Grass only where a character can stand: a slope steeper than max_floor_angle is bare.
		if ( normal.y > cosf( DEMO_MAX_FLOOR_ANGLE ) && open_above( p->g, shape, a, c, normal ) )
		{
			draw_grass( v, a, c, normal );
		}
	}
}

static void draw_plank( demo_view* v, const kcc_shape* world )
{
	kcc_aabb b = kcc_shape_bounds( world );
	kcc_color light = rgba( 196, 138, 78, 255 ), dark = rgba( 132, 86, 46, 255 );
	fill_shape( v, world, light, dark );
	SDL_FRect r = demo_view_box( v, b );
	demo_view_panel( v, r.x, r.y, r.w, 2.0f, rgba( 228, 176, 112, 255 ) );
	demo_view_panel( v, r.x, r.y + r.h - 2.0f, r.w, 2.0f, rgba( 96, 60, 32, 255 ) );
	// Board ends every 0.8.
	for ( float x = b.min.x + 0.8f; x < b.max.x - 0.1f; x += 0.8f )
	{
		SDL_FPoint s = demo_view_to_screen( v, kcc_v2( x, b.max.y ) );
		demo_view_panel( v, s.x, r.y + 2.0f, 1.5f, r.h - 4.0f, rgba( 96, 60, 32, 255 ) );
	}
}

static void draw_crate( demo_view* v, const kcc_shape* world )
{
	vec2s points[LOOK_MAX_POINTS], inner[LOOK_MAX_POINTS];
	int count = outline( world, points );
	kcc_aabb b = kcc_shape_bounds( world );
	fill_points( v, points, count, rgba( 104, 66, 34, 255 ), rgba( 86, 54, 28, 255 ), b.max.y, b.min.y );
	inset_points( points, count, 0.1f, inner );
	fill_points( v, inner, count, rgba( 198, 140, 78, 255 ), rgba( 160, 108, 56, 255 ), b.max.y, b.min.y );
	stroke_points( v, inner, count, 1.5f, rgba( 110, 70, 36, 255 ) );
	if ( count == 4 )
	{
		// The brace, corner to corner.
		float width = 0.12f * v->scale;
		demo_view_line( v, demo_view_to_screen( v, inner[0] ), demo_view_to_screen( v, inner[2] ), width,
						rgba( 120, 78, 40, 255 ) );
	}
}

static void draw_platform( demo_view* v, const cpShape* shape, const kcc_shape* world )
{
	vec2s points[LOOK_MAX_POINTS], inner[LOOK_MAX_POINTS];
	int count = outline( world, points );
	kcc_aabb b = kcc_shape_bounds( world );
	fill_points( v, points, count, rgba( 40, 70, 80, 255 ), rgba( 30, 52, 60, 255 ), b.max.y, b.min.y );
	inset_points( points, count, 0.06f, inner );
	fill_points( v, inner, count, rgba( 120, 200, 206, 255 ), rgba( 58, 120, 132, 255 ), b.max.y, b.min.y );
	// Bolts near the ends of its long sides, and at the pivot of what turns.
	if ( count == 4 )
	{
		vec2s c = glms_vec2_scale( glms_vec2_add( inner[0], inner[2] ), 0.5f );
		for ( int i = 0; i < 4; ++i )
		{
			circle( v, glms_vec2_lerp( c, inner[i], 0.85f ), 0.05f, rgba( 30, 52, 60, 255 ) );
		}
	}
	cpVect pivot = cpBodyGetPosition( cpShapeGetBody( (cpShape*)shape ) );
	if ( cpBodyGetAngle( cpShapeGetBody( (cpShape*)shape ) ) != 0.0 )
	{
		circle( v, kcc_v2( (float)pivot.x, (float)pivot.y ), 0.12f, rgba( 30, 52, 60, 255 ) );
		circle( v, kcc_v2( (float)pivot.x, (float)pivot.y ), 0.06f, rgba( 170, 220, 225, 255 ) );
	}
}

// A conveyor belt: a dark band on rollers, chevrons on its top moving along it at its surface velocity (the
// direction a character standing on it is carried).
static void draw_belt( look_pass* p, const cpShape* shape, const kcc_shape* world )
{
	demo_view* v = p->v;
	vec2s points[LOOK_MAX_POINTS], inner[LOOK_MAX_POINTS];
	int count = outline( world, points );
	kcc_aabb b = kcc_shape_bounds( world );
	fill_points( v, points, count, rgba( 40, 42, 50, 255 ), rgba( 30, 32, 38, 255 ), b.max.y, b.min.y );
	inset_points( points, count, 0.06f, inner );
	fill_points( v, inner, count, rgba( 84, 86, 98, 255 ), rgba( 48, 50, 60, 255 ), b.max.y, b.min.y );
	float height = b.max.y - b.min.y, radius = fminf( 0.3f * height, 0.15f );
	// Rollers about 0.6 apart, spread evenly so none hangs over an end.
	int rollers = (int)( ( b.max.x - b.min.x ) / 0.6f );
	rollers = rollers > 0 ? rollers : 1;
	float pitch = ( b.max.x - b.min.x ) / (float)rollers;
	for ( int i = 0; i < rollers; ++i )
	{
		float x = b.min.x + pitch * ( (float)i + 0.5f );
		circle( v, kcc_v2( x, 0.5f * ( b.min.y + b.max.y ) ), radius, rgba( 150, 152, 162, 255 ) );
		circle( v, kcc_v2( x, 0.5f * ( b.min.y + b.max.y ) ), 0.4f * radius, rgba( 40, 42, 50, 255 ) );
	}
	// The top edge (the one facing most upward), and the chevrons along it.
	int top = 0;
	float best = -2.0f;
	for ( int i = 0; i < count; ++i )
	{
		vec2s e = glms_vec2_sub( points[( i + 1 ) % count], points[i] );
		float length = glms_vec2_norm( e );
		float up = length > 1.0e-6f ? -e.x / length : -2.0f; // the outward normal's y (counter-clockwise)
		if ( up > best )
		{
			best = up;
			top = i;
		}
	}
	vec2s a = points[top], c = points[( top + 1 ) % count];
	vec2s along = glms_vec2_sub( c, a );
	float length = glms_vec2_norm( along );
	if ( length < 0.2f )
	{
		return;
	}
	vec2s unit = glms_vec2_scale( along, 1.0f / length );
	cpVect surface = cpShapeGetSurfaceVelocity( shape );
	float speed = (float)surface.x * unit.x + (float)surface.y * unit.y;
	float forward = speed >= 0.0f ? 1.0f : -1.0f, spacing = 0.5f;
	float shift = fmodf( (float)kcc_level_get_time( p->g->level ) * fabsf( speed ), spacing );
	vec2s normal = kcc_v2( unit.y, -unit.x ); // outward (counter-clockwise outline)
	for ( float t = 0.15f + ( forward > 0.0f ? shift : spacing - shift ); t < length - 0.1f; t += spacing )
	{
		vec2s tip = glms_vec2_add( glms_vec2_add( a, glms_vec2_scale( unit, t ) ), glms_vec2_scale( normal, -0.14f ) );
		vec2s back = glms_vec2_sub( tip, glms_vec2_scale( unit, 0.12f * forward ) );
		vec2s wing = glms_vec2_scale( normal, 0.08f );
		SDL_FPoint s_tip = demo_view_to_screen( v, tip );
		kcc_color yellow = rgba( 236, 196, 70, 255 );
		demo_view_line( v, demo_view_to_screen( v, glms_vec2_add( back, wing ) ), s_tip, 2.0f, yellow );
		demo_view_line( v, demo_view_to_screen( v, glms_vec2_sub( back, wing ) ), s_tip, 2.0f, yellow );
	}
}

static void draw_zone( look_pass* p, const cpShape* shape, const kcc_shape* world )
{
	demo_view* v = p->v;
	const demo_game* g = p->g;
	kcc_color c = demo_zone_color( g, shape, rgba( 90, 160, 255, 60 ) );
	kcc_aabb b = kcc_shape_bounds( world );
	kcc_color faint = rgba( c.r, c.g, c.b, (uint8_t)( c.a / 4 ) );
	fill_shape( v, world, faint, c );
	const kcc_level_object* o = kcc_level_object_of_shape( g->level, shape );
	const kcc_level_property* checkpoint = o != NULL ? kcc_level_get_object_property( o, "checkpoint" ) : NULL;
	const kcc_level_property* target = o != NULL ? kcc_level_get_object_property( o, "target" ) : NULL;
	float mid = 0.5f * ( b.min.x + b.max.x );
	if ( checkpoint != NULL && checkpoint->type == KCC_PROPERTY_BOOL && checkpoint->boolean )
	{
		// A flag on a pole.
		vec2s foot = kcc_v2( mid, b.min.y ), head = kcc_v2( mid, b.min.y + 2.2f );
		demo_view_line( v, demo_view_to_screen( v, foot ), demo_view_to_screen( v, head ), 0.07f * v->scale,
						rgba( 220, 224, 232, 255 ) );
		vec2s flag[3] = { head, kcc_v2( mid, head.y - 0.5f ), kcc_v2( mid + 0.7f, head.y - 0.25f ) };
		bool reached = g->player.respawn.x >= b.min.x - 0.01f && g->player.respawn.x <= b.max.x + 0.01f;
		kcc_color cloth = reached ? rgba( 90, 220, 120, 255 ) : rgba( 230, 80, 70, 255 );
		fill_points( v, flag, 3, cloth, shade( cloth, 0.8f ), head.y, head.y - 0.5f );
	}
	else if ( target != NULL && target->type == KCC_PROPERTY_OBJECT )
	{
		// A door: a dark opening in a wooden frame, its top rounded.
		float half = 0.5f * ( b.max.x - b.min.x );
		kcc_shape frame = kcc_make_capsule( kcc_v2( mid, b.min.y + half ), kcc_v2( mid, b.max.y - half ), half );
		kcc_shape hole = kcc_make_capsule( kcc_v2( mid, b.min.y + half ), kcc_v2( mid, b.max.y - half ), 0.75f * half );
		fill_shape( v, &frame, rgba( 150, 104, 60, 255 ), rgba( 118, 80, 46, 255 ) );
		fill_shape( v, &hole, rgba( 20, 18, 26, 255 ), rgba( 34, 30, 40, 255 ) );
		kcc_aabb sill = { b.min, kcc_v2( b.max.x, b.min.y + half ) };
		SDL_FRect r = demo_view_box( v, sill );
		demo_view_panel( v, r.x, r.y, r.w, r.h, rgba( 118, 80, 46, 255 ) );
		demo_view_panel( v, r.x + 0.12f * r.w, r.y, 0.76f * r.w, r.h, rgba( 34, 30, 40, 255 ) );
	}
	else
	{
		// The zone's top edge, brighter, so its extent shows.
		SDL_FRect r = demo_view_box( v, b );
		demo_view_panel( v, r.x, r.y, r.w, 2.0f, rgba( c.r, c.g, c.b, 200 ) );
	}
}

static void draw_shape( const cpShape* shape, const kcc_shape* world, void* context )
{
	look_pass* p = context;
	if ( kind_of( p->g, shape ) != p->kind || kcc_shape_is_valid( world ) == false )
	{
		return;
	}
	kcc_aabb b = kcc_shape_bounds( world );
	if ( kcc_aabb_overlaps_aabb( b, p->visible ) == false )
	{
		return;
	}
	switch ( p->kind )
	{
		case LOOK_TILE: draw_tile( p, shape, world ); break;
		case LOOK_PLANK: draw_plank( p->v, world ); break;
		case LOOK_CRATE: draw_crate( p->v, world ); break;
		case LOOK_PLATFORM: draw_platform( p->v, shape, world ); break;
		case LOOK_BELT: draw_belt( p, shape, world ); break;
		case LOOK_ZONE: draw_zone( p, shape, world ); break;
		default: break;
	}
}

// The paths the platforms follow: a dotted rail.
static void draw_rails( demo_view* v, const demo_game* g )
{
	for ( int i = 0; i < kcc_level_platform_count( g->level ); ++i )
	{
		const kcc_level_platform* p = kcc_level_get_platform( g->level, i );
		for ( int k = 0; k + 1 < p->point_count; ++k )
		{
			vec2s a = glms_vec2_add( p->start, glms_vec2_sub( p->points[k], p->points[0] ) );
			vec2s b = glms_vec2_add( p->start, glms_vec2_sub( p->points[k + 1], p->points[0] ) );
			float length = glms_vec2_distance( a, b );
			for ( float t = 0.0f; t <= length; t += 0.4f )
			{
				SDL_FPoint s = demo_view_to_screen( v, glms_vec2_lerp( a, b, t / length ) );
				demo_view_panel( v, s.x - 1.5f, s.y - 1.5f, 3.0f, 3.0f, rgba( 200, 220, 235, 110 ) );
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Characters

typedef struct face
{
	vec2s at;     ///< between the eyes
	vec2s look;   ///< unit: where the pupils point
	float size;   ///< eye radius
	bool angry;
} face;

static void draw_eyes( demo_view* v, face f )
{
	float spacing = 2.1f * f.size;
	for ( int side = -1; side <= 1; side += 2 )
	{
		vec2s eye = kcc_v2( f.at.x + 0.5f * spacing * (float)side, f.at.y );
		circle( v, eye, f.size, rgba( 250, 250, 250, 255 ) );
		vec2s pupil = glms_vec2_add( eye, glms_vec2_scale( f.look, 0.45f * f.size ) );
		circle( v, pupil, 0.5f * f.size, rgba( 20, 20, 30, 255 ) );
		if ( f.angry )
		{
			// A brow slanting down toward the middle.
			vec2s outer = kcc_v2( eye.x + (float)side * f.size, eye.y + 1.2f * f.size );
			vec2s inner = kcc_v2( eye.x - (float)side * 0.6f * f.size, eye.y + 0.6f * f.size );
			SDL_FPoint a = demo_view_to_screen( v, outer ), b = demo_view_to_screen( v, inner );
			demo_view_line( v, a, b, 0.35f * f.size * v->scale, rgba( 40, 10, 10, 255 ) );
		}
	}
}

static void draw_body( demo_view* v, const kcc_shape* s, kcc_color color, bool flash )
{
	kcc_color c = flash ? rgba( 255, 255, 255, 255 ) : color;
	fill_shape( v, s, shade( c, 1.2f ), shade( c, 0.72f ) );
	stroke_shape( v, s, 2.0f, shade( c, 0.45f ) );
}

static vec2s look_along( vec2s velocity, float facing )
{
	float speed = glms_vec2_norm( velocity );
	return speed > 0.3f ? glms_vec2_scale( velocity, 1.0f / speed ) : kcc_v2( facing, 0.0f );
}

static void draw_player( demo_view* v, const demo_game* g )
{
	static const kcc_color colors[DEMO_SHAPE_COUNT] = {
		{ 80, 200, 120, 255 }, // circle
		{ 80, 150, 245, 255 }, // capsule
		{ 235, 185, 70, 255 }, // rounded box
	};
	const demo_player* p = &g->player;
	kcc_shape s = demo_player_shape( g );
	kcc_aabb b = kcc_shape_bounds( &s );
	draw_body( v, &s, colors[p->shape_kind], false );
	vec2s look = look_along( p->velocity, p->facing );
	float width = b.max.x - b.min.x;
	float size = 0.17f * width;
	// The eyes toward where it goes: turned with the motion, lower when crouched.
	vec2s at = kcc_v2( 0.5f * ( b.min.x + b.max.x ) + 0.18f * width * look.x, b.max.y - 0.4f * width + 0.05f * look.y );
	draw_eyes( v, ( face ){ at, look, size, false } );
}

static void draw_enemy( demo_view* v, const demo_enemy* e, int frame )
{
	bool flash = e->flash > 0 && ( e->flash / 3 ) % 2 == 0;
	kcc_shape s = demo_enemy_world_shape( e );
	if ( e->kind == DEMO_BAT )
	{
		// Flying: its shadow on the ground, the bat drawn above it by its height, wings flapping.
		circle( v, e->position, 0.3f, rgba( 0, 0, 0, 90 ) );
		float height = 0.5f * ( e->z_min + e->z_max );
		vec2s body = kcc_v2( e->position.x, e->position.y + height );
		float flap = 0.25f * sinf( 0.5f * (float)frame + e->phase );
		for ( int side = -1; side <= 1; side += 2 )
		{
			vec2s wing[3] = { kcc_v2( body.x + 0.15f * (float)side, body.y + 0.1f ),
							  kcc_v2( body.x + 0.8f * (float)side, body.y + 0.2f + flap ),
							  kcc_v2( body.x + 0.25f * (float)side, body.y - 0.2f ) };
			if ( side > 0 )
			{
				vec2s t = wing[0];
				wing[0] = wing[2];
				wing[2] = t;
			}
			kcc_color top = rgba( 120, 70, 170, 255 ), bottom = rgba( 80, 40, 120, 255 );
			fill_points( v, wing, 3, top, bottom, body.y + 0.4f, body.y - 0.2f );
		}
		s = kcc_shape_translate( &e->shape, body );
		draw_body( v, &s, rgba( 160, 90, 220, 255 ), flash );
		vec2s toward = glms_vec2_normalize( glms_vec2_sub( e->position, e->orbit_center ) );
		draw_eyes( v, ( face ){ kcc_v2( body.x, body.y + 0.06f ), kcc_v2( -toward.y, toward.x ), 0.09f, true } );
		return;
	}
	kcc_aabb b = kcc_shape_bounds( &s );
	float width = b.max.x - b.min.x;
	if ( e->kind == DEMO_SLIME )
	{
		draw_body( v, &s, rgba( 96, 196, 104, 235 ), flash );
		vec2s look = kcc_v2( cosf( e->phase ), sinf( e->phase ) );
		vec2s at = glms_vec2_add( b.min, kcc_v2( 0.5f * width, 0.55f * width ) );
		draw_eyes( v, ( face ){ at, look, 0.14f * width, false } );
		return;
	}
	draw_body( v, &s, rgba( 205, 70, 60, 255 ), flash );
	vec2s look = look_along( kcc_v2( e->result.displacement.x / DEMO_DT, 0.0f ), e->velocity.x < 0.0f ? -1.0f : 1.0f );
	vec2s at = kcc_v2( 0.5f * ( b.min.x + b.max.x ) + 0.15f * width * look.x, b.max.y - 0.42f * width );
	draw_eyes( v, ( face ){ at, look, 0.17f * width, true } );
}

static void draw_attack( demo_view* v, const demo_game* g )
{
	const demo_attack* a = &g->attack;
	if ( a->kind == DEMO_ATTACK_NONE )
	{
		return;
	}
	kcc_color c = demo_attack_color( a->kind );
	vec2s points[LOOK_MAX_POINTS];
	int count = outline( &a->shape, points );
	kcc_aabb b = kcc_shape_bounds( &a->shape );
	fill_points( v, points, count, rgba( c.r, c.g, c.b, 110 ), rgba( c.r, c.g, c.b, 50 ), b.max.y, b.min.y );
	stroke_points( v, points, count, 2.5f, rgba( c.r, c.g, c.b, 220 ) );
}

// ---------------------------------------------------------------------------------------------------------------

void demo_look_draw( demo_view* v, const demo_game* g )
{
	draw_sky( v, g );
	// Under the map: earth.
	float bottom = demo_view_to_screen( v, kcc_v2( 0.0f, 0.0f ) ).y;
	demo_view_panel( v, (float)v->viewport.x, bottom, (float)v->viewport.w,
					 (float)( v->viewport.y + v->viewport.h ) - bottom, rgba( 52, 36, 28, 255 ) );
	draw_room_floor( v, g );
	draw_rails( v, g );
	// The attack behind the level and the characters: a fan aimed along the ground is cut by the floor, as the eye
	// expects (the hit test itself goes through walls), and the characters stay whole inside it.
	draw_attack( v, g );
	vec2s lo = demo_view_to_world( v, (float)v->viewport.x, (float)( v->viewport.y + v->viewport.h ) );
	vec2s hi = demo_view_to_world( v, (float)( v->viewport.x + v->viewport.w ), (float)v->viewport.y );
	look_pass pass = { v, g, LOOK_TILE, { lo, hi } };
	static const look_kind order[LOOK_PASSES] = {
		LOOK_TILE, LOOK_PLANK, LOOK_PLATFORM, LOOK_BELT, LOOK_CRATE, LOOK_ZONE,
	};
	for ( int i = 0; i < LOOK_PASSES; ++i )
	{
		pass.kind = order[i];
		kcc_space_each_shape( g->space, draw_shape, &pass );
	}
	for ( int i = 0; i < g->enemy_count; ++i )
	{
		draw_enemy( v, g->enemies + i, g->frame );
	}
	draw_player( v, g );
}
