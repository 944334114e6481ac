// SPDX-License-Identifier: MIT
// Level load time: one generated 1,000 x 1,000-tile map (terrain under a varying ground line, floating platforms
// every 10 rows, one-way ledges, 200 objects) saved in memory as Tiled JSON (a gid array), TMX with CSV, TMX with
// base64 + zstd, and an LDtk project (an IntGrid layer and entities), each loaded with kcc_level_load_memory into a
// fresh space: the median of 5 loads, the file's size and what the load made (which must be the same for all four).
// Prints figures; asserts nothing. Build it in a Release tree:  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
// Run:  ./bench_level_load [cells per side]
#define _POSIX_C_SOURCE 199309L

#include "kcc/level.h"

#include <zstd.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef KCC_BENCH_BUILD_TYPE
#define KCC_BENCH_BUILD_TYPE "unknown"
#endif

typedef struct text
{
	char* data;
	size_t length, capacity;
} text;

static void put( text* t, const char* format, ... )
{
	for ( ;; )
	{
		va_list args;
		va_start( args, format );
		int n = vsnprintf( t->data + t->length, t->capacity - t->length, format, args );
		va_end( args );
		if ( n >= 0 && (size_t)n < t->capacity - t->length )
		{
			t->length += (size_t)n;
			return;
		}
		t->capacity = t->capacity * 2 + (size_t)( n > 0 ? n : 0 ) + 1024;
		t->data = realloc( t->data, t->capacity );
		if ( t->data == NULL )
		{
			fprintf( stderr, "out of memory\n" );
			exit( 1 );
		}
	}
}

// The map's cell at (x, y), y down: 0 empty, 1 solid, 2 one-way.
static int cell( int x, int y, int n )
{
	int ground = n / 2 + (int)( ( (unsigned)x * 37u ) % 97u ) - 48;
	if ( y >= ground )
	{
		return 1;
	}
	if ( y % 10 == 0 && ( x / 7 + y / 10 ) % 3 == 0 )
	{
		return ( x / 21 ) % 2 == 0 ? 1 : 2;
	}
	return 0;
}

static void tiled_objects_json( text* t, int n )
{
	put( t, ",{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[" );
	for ( int i = 0; i < 200; ++i )
	{
		int x = ( i * 53 ) % n, y = ( i * 29 ) % ( n / 2 );
		put( t, "%s{\"id\":%d,\"name\":\"thing%d\",\"type\":\"%s\",\"x\":%d,\"y\":%d,\"width\":16,\"height\":16}",
			 i > 0 ? "," : "", i + 1, i, i % 4 == 0 ? "zone" : i % 4 == 1 ? "spawn" : "coin", x * 16, y * 16 );
	}
	put( t, "]}" );
}

static const char* s_tileset_json = "{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":2,"
									"\"tiles\":[{\"id\":0,\"type\":\"solid\"},{\"id\":1,\"type\":\"one_way\"}]}";

static void make_json( text* t, int n )
{
	put( t, "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":%d,\"height\":%d,\"tilewidth\":16,"
			"\"tileheight\":16,\"tilesets\":[%s],\"layers\":[{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":%d,"
			"\"height\":%d,\"data\":[",
		 n, n, s_tileset_json, n, n );
	for ( int y = 0; y < n; ++y )
	{
		for ( int x = 0; x < n; ++x )
		{
			put( t, y + x > 0 ? ",%d" : "%d", cell( x, y, n ) );
		}
	}
	put( t, "]}" );
	tiled_objects_json( t, n );
	put( t, "]}" );
}

static void make_tmx( text* t, int n, bool zstd )
{
	put( t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.10\" orientation=\"orthogonal\" width=\"%d\" "
			"height=\"%d\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\">\n <tileset firstgid=\"1\" name=\"t\" "
			"tilewidth=\"16\" tileheight=\"16\" tilecount=\"2\">\n  <tile id=\"0\" type=\"solid\"/>\n  <tile id=\"1\" "
			"type=\"one_way\"/>\n </tileset>\n <layer id=\"1\" name=\"ground\" width=\"%d\" height=\"%d\">\n",
		 n, n, n, n );
	if ( zstd == false )
	{
		put( t, "  <data encoding=\"csv\">\n" );
		for ( int y = 0; y < n; ++y )
		{
			for ( int x = 0; x < n; ++x )
			{
				put( t, x + 1 < n || y + 1 < n ? "%d," : "%d", cell( x, y, n ) );
			}
			put( t, "\n" );
		}
	}
	else
	{
		size_t size = (size_t)n * (size_t)n * 4;
		uint8_t* raw = malloc( size );
		size_t bound = ZSTD_compressBound( size );
		uint8_t* packed = malloc( bound );
		for ( int i = 0; i < n * n; ++i )
		{
			uint32_t gid = (uint32_t)cell( i % n, i / n, n );
			memcpy( raw + 4 * (size_t)i, &gid, 4 ); // little-endian machines only: this is a benchmark
		}
		size_t made = ZSTD_compress( packed, bound, raw, size, 3 );
		static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		put( t, "  <data encoding=\"base64\" compression=\"zstd\">\n   " );
		for ( size_t i = 0; i < made; i += 3 )
		{
			uint32_t v = (uint32_t)packed[i] << 16 | ( i + 1 < made ? (uint32_t)packed[i + 1] << 8 : 0 ) |
						 ( i + 2 < made ? packed[i + 2] : 0 );
			put( t, "%c%c%c%c", alphabet[v >> 18 & 63], alphabet[v >> 12 & 63], i + 1 < made ? alphabet[v >> 6 & 63] : '=',
				 i + 2 < made ? alphabet[v & 63] : '=' );
		}
		free( raw );
		free( packed );
	}
	put( t, "\n  </data>\n </layer>\n <objectgroup id=\"2\" name=\"things\">\n" );
	for ( int i = 0; i < 200; ++i )
	{
		int x = ( i * 53 ) % n, y = ( i * 29 ) % ( n / 2 );
		put( t, "  <object id=\"%d\" name=\"thing%d\" type=\"%s\" x=\"%d\" y=\"%d\" width=\"16\" height=\"16\"/>\n", i + 1,
			 i, i % 4 == 0 ? "zone" : i % 4 == 1 ? "spawn" : "coin", x * 16, y * 16 );
	}
	put( t, " </objectgroup>\n</map>\n" );
}

static void make_ldtk( text* t, int n )
{
	put( t, "{\"__header__\":{\"app\":\"LDtk\"},\"jsonVersion\":\"1.5.3\",\"defaultGridSize\":16,\"defs\":{\"layers\":["
			"{\"identifier\":\"Collisions\",\"type\":\"IntGrid\",\"uid\":1,\"gridSize\":16,\"intGridValues\":["
			"{\"value\":1,\"identifier\":\"solid\"},{\"value\":2,\"identifier\":\"one_way\"}]}]},\"levels\":[{"
			"\"identifier\":\"Big\",\"pxWid\":%d,\"pxHei\":%d,\"worldX\":0,\"worldY\":0,\"layerInstances\":[",
		 n * 16, n * 16 );
	put( t, "{\"__identifier\":\"things\",\"__type\":\"Entities\",\"__cWid\":%d,\"__cHei\":%d,\"__gridSize\":16,"
			"\"layerDefUid\":2,\"intGridCsv\":[],\"entityInstances\":[",
		 n, n );
	for ( int i = 0; i < 200; ++i )
	{
		int x = ( i * 53 ) % n, y = ( i * 29 ) % ( n / 2 );
		put( t, "%s{\"__identifier\":\"%s\",\"iid\":\"e%d\",\"px\":[%d,%d],\"__pivot\":[0,0],\"width\":16,\"height\":16,"
				"\"fieldInstances\":[{\"__identifier\":\"name\",\"__type\":\"String\",\"__value\":\"thing%d\"}]}",
			 i > 0 ? "," : "", i % 4 == 0 ? "zone" : i % 4 == 1 ? "spawn" : "coin", i, x * 16, y * 16, i );
	}
	put( t, "]},{\"__identifier\":\"Collisions\",\"__type\":\"IntGrid\",\"__cWid\":%d,\"__cHei\":%d,\"__gridSize\":16,"
			"\"layerDefUid\":1,\"entityInstances\":[],\"intGridCsv\":[",
		 n, n );
	for ( int y = 0; y < n; ++y )
	{
		for ( int x = 0; x < n; ++x )
		{
			put( t, y + x > 0 ? ",%d" : "%d", cell( x, y, n ) );
		}
	}
	put( t, "]}]}]}" );
}

static double now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

static void measure( const char* format, const text* t, const char* name )
{
	enum
	{
		RUNS = 5
	};
	double times[RUNS];
	kcc_level_info info;
	memset( &info, 0, sizeof( info ) );
	int warnings = 0;
	kcc_level_def def = kcc_default_level_def();
	kcc_level_rule rules[] = { { NULL, "coin", NULL, NULL, KCC_LEVEL_ZONE } };
	def.rules = rules;
	def.rule_count = 1;
	for ( int i = 0; i < RUNS; ++i )
	{
		cpSpace* space = cpSpaceNew();
		kcc_level* level = NULL;
		kcc_level_error error;
		double start = now();
		kcc_level_status status = kcc_level_load_memory( space, t->data, t->length, name, &def, &level, &error );
		times[i] = now() - start;
		if ( status != KCC_LEVEL_OK )
		{
			fprintf( stderr, "%s: %s\n", format, error.message );
			exit( 1 );
		}
		info = kcc_level_get_info( level );
		warnings = kcc_level_warning_count( level );
		kcc_level_destroy( level );
		cpSpaceFree( space );
	}
	qsort( times, RUNS, sizeof( double ), compare );
	printf( "%-10s %9.2f MB %9.1f ms %9d %9d %9d %9d %5d\n", format, (double)t->length / 1e6, times[RUNS / 2] * 1e3,
			info.tile_count, info.tile_shape_count, info.object_count, info.shape_count, warnings );
}

int main( int argc, char** argv )
{
	int n = argc > 1 ? atoi( argv[1] ) : 1000;
	if ( n < 20 || n > 4000 )
	{
		fprintf( stderr, "usage: bench_level_load [cells per side, 20 to 4000]\n" );
		return 2;
	}
	printf( "bench_level_load: a %d x %d-tile map, median of 5 loads (build: %s)\n", n, n, KCC_BENCH_BUILD_TYPE );
	printf( "%-10s %12s %12s %9s %9s %9s %9s %5s\n", "format", "size", "load", "tiles", "tile shp", "objects", "shapes",
			"warn" );
	text t = { NULL, 0, 0 };
	make_json( &t, n );
	measure( "JSON", &t, "big.tmj" );
	t.length = 0;
	make_tmx( &t, n, false );
	measure( "TMX CSV", &t, "big.tmx" );
	t.length = 0;
	make_tmx( &t, n, true );
	measure( "TMX zstd", &t, "big.tmx" );
	t.length = 0;
	make_ldtk( &t, n );
	measure( "LDtk", &t, "big.ldtk" );
	free( t.data );
	return 0;
}
