// SPDX-License-Identifier: MIT
// Deterministic random-input driver for tests/fuzz_geometry.c where there is no libFuzzer (GCC builds):
// `fuzz_geometry N` runs N inputs (default 10000) of 0 to 512 bytes from a fixed seed. Bytes are drawn with a bias
// toward small values and repeated runs, like the inputs a fuzzer mutates toward. On a violation (abort) the input
// is written to fuzz_geometry_crash.bin; `fuzz_geometry FILE...` replays files (as libFuzzer does).
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

static uint64_t next_random( uint64_t* state )
{
	uint64_t z = ( *state += 0x9E3779B97F4A7C15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

static uint8_t s_buffer[512];
static size_t s_size = 0;
static long s_run = -1;

static void save_input( int signal_number )
{
	(void)signal_number;
	// dying anyway: stdio in a signal handler is acceptable for a test tool
	FILE* f = fopen( "fuzz_geometry_crash.bin", "wb" );
	if ( f != NULL )
	{
		fwrite( s_buffer, 1, s_size, f );
		fclose( f );
	}
	fprintf( stderr, "fuzz_driver: run %ld (%zu bytes) saved to fuzz_geometry_crash.bin\n", s_run, s_size );
	signal( SIGABRT, SIG_DFL );
	abort();
}

static int replay( int count, char** paths )
{
	for ( int i = 0; i < count; ++i )
	{
		FILE* f = fopen( paths[i], "rb" );
		if ( f == NULL )
		{
			fprintf( stderr, "cannot open %s\n", paths[i] );
			return 2;
		}
		s_size = fread( s_buffer, 1, sizeof( s_buffer ), f );
		fclose( f );
		LLVMFuzzerTestOneInput( s_buffer, s_size );
		printf( "%s: no invariant violated\n", paths[i] );
	}
	return 0;
}

int main( int argc, char** argv )
{
	char* end = NULL;
	long runs = argc > 1 ? strtol( argv[1], &end, 10 ) : 10000;
	if ( argc > 1 && ( end == argv[1] || *end != '\0' ) )
	{
		return replay( argc - 1, argv + 1 );
	}
	if ( runs < 0 )
	{
		fprintf( stderr, "usage: %s [runs | files...]\n", argv[0] );
		return 2;
	}
	signal( SIGABRT, save_input );
	uint64_t state = 0x6b636332640a; // fixed seed: every run sees the same inputs
	uint8_t* buffer = s_buffer;
	for ( long run = 0; run < runs; ++run )
	{
		s_run = run;
		size_t size = (size_t)( next_random( &state ) % ( sizeof( s_buffer ) + 1 ) );
		int style = (int)( next_random( &state ) % 4 );
		for ( size_t i = 0; i < size; ++i )
		{
			uint64_t x = next_random( &state );
			switch ( style )
			{
				case 0:
					buffer[i] = (uint8_t)x; // uniform bytes
					break;
				case 1:
					buffer[i] = (uint8_t)( x % 8 ); // small values: ordinary floats, small counts, low kinds
					break;
				case 2:
					buffer[i] = i > 0 && ( x & 3 ) == 0 ? buffer[i - 1] : (uint8_t)( x >> 8 ); // runs
					break;
				default:
					buffer[i] = ( x & 1 ) ? (uint8_t)( x >> 8 ) : (uint8_t)( ( x >> 16 ) % 128 ); // ordinary floats
					break;
			}
		}
		s_size = size;
		LLVMFuzzerTestOneInput( buffer, size );
	}
	printf( "fuzz_geometry: %ld inputs, no invariant violated\n", runs );
	return 0;
}
