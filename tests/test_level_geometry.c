// SPDX-License-Identifier: MIT
// The loader's geometry internals (level/internal.h), each against an independent measure:
// - polygon decomposition: on random simple polygons (star-shaped, combs, spirals), every piece is convex,
//   counter-clockwise and has at most KCC_MAX_POLYGON_VERTICES points; the pieces' areas add up to the polygon's;
//   sample points inside the polygon (by an even-odd ray test) lie in exactly one piece, points outside in none;
//   self-crossing and touching polygons are refused, repeated and in-line points are dropped;
// - the merge of full tiles: on random grids the rectangles cover exactly the non-empty cells, each once, with
//   one kind each; some layouts have their known minimum (a full grid is one box, a checkerboard stays cells, a
//   floor under a column stays whole);
// - base64: the RFC 4648 vectors, white space, missing padding, bad characters.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../level/internal.h"

#define PI 3.14159265358979323846

static uint64_t s_random = 0x1e7e1c0ffee;

static double random_unit( void )
{
	s_random = s_random * 6364136223846793005ull + 1442695040888963407ull;
	return (double)( s_random >> 11 ) / 9007199254740992.0;
}

// Even-odd rule: the independent inside test.
static bool inside_polygon( const kcc_dvec2* p, int n, kcc_dvec2 q )
{
	bool in = false;
	for ( int i = 0, j = n - 1; i < n; j = i++ )
	{
		if ( ( p[i].y > q.y ) != ( p[j].y > q.y ) &&
			 q.x < ( p[j].x - p[i].x ) * ( q.y - p[i].y ) / ( p[j].y - p[i].y ) + p[i].x )
		{
			in = !in;
		}
	}
	return in;
}

static double distance_to_boundary( const kcc_dvec2* p, int n, kcc_dvec2 q )
{
	double best = 1e300;
	for ( int i = 0; i < n; ++i )
	{
		kcc_dvec2 a = p[i], b = p[( i + 1 ) % n];
		double dx = b.x - a.x, dy = b.y - a.y;
		double t = ( ( q.x - a.x ) * dx + ( q.y - a.y ) * dy ) / ( dx * dx + dy * dy );
		t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
		double ex = a.x + t * dx - q.x, ey = a.y + t * dy - q.y;
		double d = sqrt( ex * ex + ey * ey );
		best = d < best ? d : best;
	}
	return best;
}

static bool inside_convex( const kcc_dvec2* p, int n, kcc_dvec2 q )
{
	for ( int i = 0; i < n; ++i )
	{
		kcc_dvec2 a = p[i], b = p[( i + 1 ) % n];
		if ( ( b.x - a.x ) * ( q.y - a.y ) - ( b.y - a.y ) * ( q.x - a.x ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Decomposes and checks every property against the polygon itself.
static void check_decomposition( const kcc_dvec2* polygon, int n )
{
	kcc_list points = { NULL, 0, 0 }, counts = { NULL, 0, 0 };
	assert_int_equal( kcc_polygon_decompose( polygon, n, &points, &counts ), KCC_POLYGON_OK );
	double area = 0.0;
	int at = 0;
	double size = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		size = fmax( size, fmax( fabs( polygon[i].x ), fabs( polygon[i].y ) ) );
	}
	for ( int k = 0; k < counts.count; ++k )
	{
		int m = *KCC_LIST_AT( counts, int, k );
		const kcc_dvec2* piece = KCC_LIST_AT( points, kcc_dvec2, at );
		assert_true( m >= 3 && m <= KCC_MAX_POLYGON_VERTICES );
		assert_true( kcc_polygon_area( piece, m ) > 0.0 );
		for ( int i = 0; i < m; ++i )
		{
			kcc_dvec2 a = piece[i], b = piece[( i + 1 ) % m], c = piece[( i + 2 ) % m];
			assert_true( ( b.x - a.x ) * ( c.y - a.y ) - ( b.y - a.y ) * ( c.x - a.x ) > 0.0 ); // convex, CCW
		}
		area += kcc_polygon_area( piece, m );
		at += m;
	}
	assert_float_equal( area, fabs( kcc_polygon_area( polygon, n ) ), 1e-9 * size * size );
	for ( int s = 0; s < 400; ++s )
	{
		kcc_dvec2 q = { ( 2.0 * random_unit() - 1.0 ) * size, ( 2.0 * random_unit() - 1.0 ) * size };
		if ( distance_to_boundary( polygon, n, q ) < 1e-6 * size )
		{
			continue;
		}
		int in = 0;
		at = 0;
		for ( int k = 0; k < counts.count; ++k )
		{
			int m = *KCC_LIST_AT( counts, int, k );
			// Points on a piece's inner edge count in both pieces: look only at clearly interior points.
			in += inside_convex( KCC_LIST_AT( points, kcc_dvec2, at ), m, q );
			at += m;
		}
		bool inside = inside_polygon( polygon, n, q );
		if ( in != ( inside ? 1 : 0 ) )
		{
			// A point on an inner edge is in two pieces; that is a shared boundary, not an overlap.
			bool on_inner_edge = false;
			at = 0;
			for ( int k = 0; k < counts.count && in == 2; ++k )
			{
				int m = *KCC_LIST_AT( counts, int, k );
				on_inner_edge = on_inner_edge || distance_to_boundary( KCC_LIST_AT( points, kcc_dvec2, at ), m, q ) < 1e-9 * size;
				at += m;
			}
			assert_true( inside && on_inner_edge );
		}
	}
	kcc_list_free( &points );
	kcc_list_free( &counts );
}

static void test_random_star_polygons( void** state )
{
	(void)state;
	kcc_dvec2 p[64];
	for ( int round = 0; round < 300; ++round )
	{
		int n = 4 + (int)( random_unit() * 60.0 );
		for ( int i = 0; i < n; ++i )
		{
			double angle = 2.0 * PI * ( i + 0.8 * random_unit() ) / n;
			double r = 0.2 + random_unit();
			p[i] = ( kcc_dvec2 ){ r * cos( angle ), r * sin( angle ) };
		}
		if ( round % 2 == 1 ) // clockwise too (Tiled's y-down polygons arrive reversed)
		{
			for ( int i = 0; i < n / 2; ++i )
			{
				kcc_dvec2 t = p[i];
				p[i] = p[n - 1 - i];
				p[n - 1 - i] = t;
			}
		}
		n = kcc_polygon_clean( p, n );
		check_decomposition( p, n );
	}
}

static void test_combs_and_spirals( void** state )
{
	(void)state;
	// A comb: teeth hanging from a bar, many reflex corners in a row.
	kcc_dvec2 comb[64];
	int n = 0;
	int teeth = 12;
	comb[n++] = ( kcc_dvec2 ){ 0.0, 0.0 };
	for ( int t = 0; t < teeth; ++t )
	{
		comb[n++] = ( kcc_dvec2 ){ 2.0 * t + 1.0, 0.0 };
		comb[n++] = ( kcc_dvec2 ){ 2.0 * t + 1.0, -3.0 };
		comb[n++] = ( kcc_dvec2 ){ 2.0 * t + 2.0, -3.0 };
		comb[n++] = ( kcc_dvec2 ){ 2.0 * t + 2.0, 0.0 };
	}
	comb[n++] = ( kcc_dvec2 ){ 2.0 * teeth + 1.0, 0.0 };
	comb[n++] = ( kcc_dvec2 ){ 2.0 * teeth + 1.0, 1.0 };
	comb[n++] = ( kcc_dvec2 ){ 0.0, 1.0 };
	// The bar's top and bottom lines hold points in line: clean them as the loader does.
	n = kcc_polygon_clean( comb, n );
	check_decomposition( comb, n );
	// A square spiral corridor of width 1.
	kcc_dvec2 spiral[64];
	int m = 0;
	double outer[][2] = { { 0, 0 }, { 8, 0 }, { 8, 8 }, { 2, 8 }, { 2, 4 }, { 5, 4 }, { 5, 5 }, { 3, 5 }, { 3, 7 },
						  { 7, 7 }, { 7, 1 }, { 1, 1 }, { 1, 9 }, { 0, 9 } };
	for ( size_t i = 0; i < sizeof( outer ) / sizeof( outer[0] ); ++i )
	{
		spiral[m++] = ( kcc_dvec2 ){ outer[i][0], outer[i][1] };
	}
	check_decomposition( spiral, m );
}

static void test_refusals_and_cleaning( void** state )
{
	(void)state;
	kcc_list points = { NULL, 0, 0 }, counts = { NULL, 0, 0 };
	kcc_dvec2 bowtie[4] = { { 0, 0 }, { 1, 1 }, { 1, 0 }, { 0, 1 } };
	assert_false( kcc_polygon_is_simple( bowtie, 4 ) );
	// Touching itself at a point: the pinched square.
	kcc_dvec2 pinched[6] = { { 0, 0 }, { 2, 0 }, { 1, 1 }, { 2, 2 }, { 0, 2 }, { 1, 1 } };
	assert_false( kcc_polygon_is_simple( pinched, 6 ) );
	assert_int_equal( kcc_polygon_decompose( pinched, 6, &points, &counts ), KCC_POLYGON_SELF_CROSSING );
	kcc_dvec2 line[3] = { { 0, 0 }, { 1, 1 }, { 2, 2 } };
	assert_int_equal( kcc_polygon_decompose( line, 3, &points, &counts ), KCC_POLYGON_DEGENERATE );
	assert_int_equal( points.count, 0 );
	kcc_dvec2 messy[8] = { { 0, 0 }, { 0, 0 }, { 1, 0 }, { 2, 0 }, { 2, 2 }, { 2, 2 }, { 0, 2 }, { 0, 1 } };
	int n = kcc_polygon_clean( messy, 8 );
	assert_int_equal( n, 4 );
	assert_true( kcc_polygon_is_convex( messy, n ) );
	kcc_dvec2 star[10];
	for ( int i = 0; i < 10; ++i )
	{
		double r = i % 2 == 0 ? 1.0 : 0.4;
		star[i] = ( kcc_dvec2 ){ r * cos( PI * i / 5.0 ), r * sin( PI * i / 5.0 ) };
	}
	assert_false( kcc_polygon_is_convex( star, 10 ) );
	kcc_list_free( &points );
	kcc_list_free( &counts );
}

static int s_widest; // the widest rectangle of the last check_merge

// Checks the merge of a grid: every non-empty cell covered exactly once by a rectangle of its own kind.
static int check_merge( const uint8_t* grid, int w, int h, uint32_t vertical )
{
	s_widest = 0;
	uint8_t* cells = malloc( (size_t)( w * h ) );
	int* cover = calloc( (size_t)( w * h ), sizeof( int ) );
	memcpy( cells, grid, (size_t)( w * h ) );
	kcc_list rects = { NULL, 0, 0 };
	assert_true( kcc_merge_cells( cells, w, h, vertical, &rects ) );
	for ( int i = 0; i < w * h; ++i )
	{
		assert_int_equal( cells[i], 0 ); // consumed
	}
	for ( int k = 0; k < rects.count; ++k )
	{
		const kcc_cell_rect* r = KCC_LIST_AT( rects, kcc_cell_rect, k );
		assert_true( r->w > 0 && r->h > 0 && r->x >= 0 && r->y >= 0 && r->x + r->w <= w && r->y + r->h <= h );
		assert_true( r->h == 1 || ( vertical & ( 1u << r->kind ) ) != 0 );
		s_widest = r->w > s_widest ? r->w : s_widest;
		for ( int y = r->y; y < r->y + r->h; ++y )
		{
			for ( int x = r->x; x < r->x + r->w; ++x )
			{
				assert_int_equal( grid[y * w + x], r->kind );
				cover[y * w + x] += 1;
			}
		}
	}
	for ( int i = 0; i < w * h; ++i )
	{
		assert_int_equal( cover[i], grid[i] != 0 ? 1 : 0 );
	}
	int count = rects.count;
	kcc_list_free( &rects );
	free( cells );
	free( cover );
	return count;
}

static void test_merge_layouts( void** state )
{
	(void)state;
	uint8_t grid[12 * 8];
	memset( grid, 1, sizeof( grid ) );
	assert_int_equal( check_merge( grid, 12, 8, 1u << 1 ), 1 );
	assert_int_equal( check_merge( grid, 12, 8, 0 ), 8 ); // rows only
	for ( int i = 0; i < 12 * 8; ++i )
	{
		grid[i] = (uint8_t)( ( ( i % 12 ) + ( i / 12 ) ) % 2 );
	}
	assert_int_equal( check_merge( grid, 12, 8, 1u << 1 ), 48 );
	// A column standing on a floor: the floor stays one box, the column another.
	memset( grid, 0, sizeof( grid ) );
	for ( int x = 0; x < 12; ++x )
	{
		grid[7 * 12 + x] = 1;
		grid[6 * 12 + x] = 1;
	}
	for ( int y = 0; y < 6; ++y )
	{
		grid[y * 12 + 5] = 1;
	}
	assert_int_equal( check_merge( grid, 12, 8, 1u << 1 ), 2 );
	assert_int_equal( s_widest, 12 );
	// The same with the column at either edge (a wall standing on the floor's end): the floor is not cut.
	for ( int y = 0; y < 6; ++y )
	{
		grid[y * 12 + 5] = 0;
		grid[y * 12 + 0] = 1;
	}
	assert_int_equal( check_merge( grid, 12, 8, 1u << 1 ), 2 );
	assert_int_equal( s_widest, 12 );
	for ( int y = 0; y < 6; ++y )
	{
		grid[y * 12 + 0] = 0;
		grid[y * 12 + 11] = 1;
	}
	assert_int_equal( check_merge( grid, 12, 8, 1u << 1 ), 2 );
	assert_int_equal( s_widest, 12 );
	// Two kinds side by side never share a rectangle.
	memset( grid, 1, sizeof( grid ) );
	for ( int y = 0; y < 8; ++y )
	{
		grid[y * 12 + 11] = 2;
	}
	assert_int_equal( check_merge( grid, 12, 8, 1u << 1 ), 1 + 8 );
}

static void test_merge_random_grids( void** state )
{
	(void)state;
	uint8_t grid[40 * 30];
	for ( int round = 0; round < 200; ++round )
	{
		int w = 1 + (int)( random_unit() * 40.0 ), h = 1 + (int)( random_unit() * 30.0 );
		double fill = random_unit();
		for ( int i = 0; i < w * h; ++i )
		{
			grid[i] = random_unit() < fill ? (uint8_t)( 1 + ( random_unit() < 0.2 ) ) : 0;
		}
		int cells = 0;
		for ( int i = 0; i < w * h; ++i )
		{
			cells += grid[i] != 0;
		}
		assert_true( check_merge( grid, w, h, 1u << 1 ) <= cells );
	}
}

static void test_base64( void** state )
{
	(void)state;
	static const struct
	{
		const char* text;
		const char* bytes;
	} vectors[] = { { "", "" },         { "Zg==", "f" },         { "Zm8=", "fo" },         { "Zm9v", "foo" },
					{ "Zm9vYg==", "foob" }, { "Zm9vYmE=", "fooba" }, { "Zm9vYmFy", "foobar" }, { "Zm9vYg", "foob" },
					{ " Zm9v\nYmFy\r\n", "foobar" } };
	uint8_t out[32];
	for ( size_t i = 0; i < sizeof( vectors ) / sizeof( vectors[0] ); ++i )
	{
		size_t n = strlen( vectors[i].text );
		long got = kcc_base64_decode( vectors[i].text, n, out, sizeof( out ) );
		assert_int_equal( got, (long)strlen( vectors[i].bytes ) );
		assert_memory_equal( out, vectors[i].bytes, (size_t)got );
		assert_true( (size_t)got <= kcc_base64_capacity( n ) );
	}
	const char* bad[] = { "Z", "Zm9v!", "Zg==Zg==", "Zg===", "Z===", "Zm9vYmFy\x80" };
	for ( size_t i = 0; i < sizeof( bad ) / sizeof( bad[0] ); ++i )
	{
		assert_int_equal( kcc_base64_decode( bad[i], strlen( bad[i] ), out, sizeof( out ) ), -1 );
	}
	// Never past the capacity.
	assert_int_equal( kcc_base64_decode( "Zm9vYmFy", 8, out, 5 ), -1 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_random_star_polygons ),
		cmocka_unit_test( test_combs_and_spirals ),
		cmocka_unit_test( test_refusals_and_cleaning ),
		cmocka_unit_test( test_merge_layouts ),
		cmocka_unit_test( test_merge_random_grids ),
		cmocka_unit_test( test_base64 ),
	};
	return cmocka_run_group_tests_name( "level geometry", tests, NULL, NULL );
}
