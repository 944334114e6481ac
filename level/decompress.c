// SPDX-License-Identifier: MIT
// Compressed tile data (Tiled's base64 with zlib, gzip or zstd) through zlib and libzstd. The size a layer's data
// must have is known (4 bytes a cell): the output buffer is exactly that, and data that would make more, or less,
// is an error, so a small file cannot expand into a large allocation.
#include "internal.h"

#include <zlib.h>
#include <zstd.h>

#include <limits.h>
#include <string.h>

static kcc_level_status kcc_wrong_size( kcc_loader* L, const char* method, const char* more_or_less, size_t size )
{
	return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "%s tile data holds %s than the %zu bytes the layer needs (4 per cell)",
					 method, more_or_less, size );
}

static kcc_level_status kcc_inflate( kcc_loader* L, const char* method, const uint8_t* in, size_t in_size,
									 uint8_t* out, size_t size )
{
	if ( in_size > UINT_MAX || size > UINT_MAX )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "%s tile data of more than 4 GiB", method );
	}
	z_stream z;
	memset( &z, 0, sizeof( z ) );
	// 15 + 32: a zlib or a gzip header, found from the data (Tiled writes either under either name in old files).
	if ( inflateInit2( &z, 15 + 32 ) != Z_OK )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory (zlib)" );
	}
	z.next_in = (Bytef*)in;
	z.avail_in = (uInt)in_size;
	z.next_out = out;
	z.avail_out = (uInt)size;
	int result = inflate( &z, Z_FINISH );
	if ( result == Z_BUF_ERROR && z.avail_out == 0 )
	{
		// The output is full but the stream goes on: one more byte tells data that is too long from a stream
		// that ends exactly here.
		uint8_t extra;
		z.next_out = &extra;
		z.avail_out = 1;
		result = inflate( &z, Z_FINISH );
		if ( result != Z_STREAM_END || z.avail_out == 0 )
		{
			inflateEnd( &z );
			return kcc_wrong_size( L, method, "more", size );
		}
	}
	size_t made = size - z.avail_out;
	inflateEnd( &z );
	if ( result == Z_STREAM_END && made == size )
	{
		return KCC_LEVEL_OK;
	}
	if ( result == Z_STREAM_END || ( result == Z_BUF_ERROR && z.avail_in == 0 ) )
	{
		return result == Z_STREAM_END ? kcc_wrong_size( L, method, "less", size )
									  : kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "%s tile data ends early", method );
	}
	if ( result == Z_MEM_ERROR )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory (zlib)" );
	}
	return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data is not valid %s data (%s)", method,
					 z.msg != NULL ? z.msg : "corrupt" );
}

static kcc_level_status kcc_unzstd( kcc_loader* L, const uint8_t* in, size_t in_size, uint8_t* out, size_t size )
{
	ZSTD_DCtx* context = ZSTD_createDCtx();
	if ( context == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory (zstd)" );
	}
	// Streaming into the exact buffer: a frame that says (or turns out) larger stops at the buffer's end.
	ZSTD_inBuffer input = { in, in_size, 0 };
	ZSTD_outBuffer output = { out, size, 0 };
	size_t result = 1;
	while ( result != 0 && ZSTD_isError( result ) == 0 && output.pos < output.size )
	{
		size_t before_in = input.pos, before_out = output.pos;
		result = ZSTD_decompressStream( context, &output, &input );
		if ( result != 0 && input.pos == before_in && output.pos == before_out )
		{
			break; // no progress: the input ended early
		}
	}
	kcc_level_status status = KCC_LEVEL_OK;
	if ( ZSTD_isError( result ) )
	{
		status = kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "tile data is not valid zstd data (%s)",
						   ZSTD_getErrorName( result ) );
	}
	else if ( output.pos < size )
	{
		status = result == 0 ? kcc_wrong_size( L, "zstd", "less", size )
							 : kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "zstd tile data ends early" );
	}
	else if ( result != 0 || input.pos < input.size )
	{
		// The buffer is full: anything left (more of the frame, or another frame) is too much.
		uint8_t extra;
		ZSTD_outBuffer more = { &extra, 1, 0 };
		size_t rest = result != 0 ? ZSTD_decompressStream( context, &more, &input ) : 1;
		if ( ZSTD_isError( rest ) || more.pos > 0 || input.pos < input.size )
		{
			status = kcc_wrong_size( L, "zstd", "more", size );
		}
	}
	ZSTD_freeDCtx( context );
	return status;
}

kcc_level_status kcc_decompress( kcc_loader* L, const char* method, const uint8_t* in, size_t in_size, uint8_t* out,
								 size_t size )
{
	if ( strcmp( method, "zlib" ) == 0 || strcmp( method, "gzip" ) == 0 )
	{
		return kcc_inflate( L, method, in, in_size, out, size );
	}
	if ( strcmp( method, "zstd" ) == 0 )
	{
		return kcc_unzstd( L, in, in_size, out, size );
	}
	return kcc_fail( L, KCC_LEVEL_ERROR_UNSUPPORTED, "tile data compression '%s' is not zlib, gzip or zstd", method );
}
