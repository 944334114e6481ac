// SPDX-License-Identifier: MIT
// Base64 (RFC 4648, standard alphabet) for Tiled's uncompressed base64 tile data. White space is skipped (maps
// converted from TMX keep their line breaks); '=' padding is optional.
#include "internal.h"

static int kcc_base64_value( unsigned char c )
{
	if ( c >= 'A' && c <= 'Z' )
	{
		return c - 'A';
	}
	if ( c >= 'a' && c <= 'z' )
	{
		return c - 'a' + 26;
	}
	if ( c >= '0' && c <= '9' )
	{
		return c - '0' + 52;
	}
	if ( c == '+' )
	{
		return 62;
	}
	if ( c == '/' )
	{
		return 63;
	}
	return -1;
}

size_t kcc_base64_capacity( size_t length )
{
	return length / 4 * 3 + 3;
}

long kcc_base64_decode( const char* text, size_t length, uint8_t* out, size_t capacity )
{
	uint32_t bits = 0;
	int held = 0;         // sextets in bits
	size_t written = 0;
	size_t padding = 0;
	for ( size_t i = 0; i < length; ++i )
	{
		unsigned char c = (unsigned char)text[i];
		if ( c == ' ' || c == '\n' || c == '\r' || c == '\t' )
		{
			continue;
		}
		if ( c == '=' )
		{
			padding += 1;
			continue;
		}
		int v = kcc_base64_value( c );
		if ( v < 0 || padding > 0 )
		{
			return -1; // a foreign character, or data after the padding
		}
		bits = ( bits << 6 ) | (uint32_t)v;
		held += 1;
		if ( held == 4 )
		{
			if ( written + 3 > capacity )
			{
				return -1;
			}
			out[written++] = (uint8_t)( bits >> 16 );
			out[written++] = (uint8_t)( bits >> 8 );
			out[written++] = (uint8_t)bits;
			bits = 0;
			held = 0;
		}
	}
	// A final group of 2 or 3 sextets holds 1 or 2 bytes; 1 sextet alone is not base64.
	if ( held == 1 || padding > 2 || ( padding > 0 && held + (int)padding != 4 ) )
	{
		return -1;
	}
	if ( held >= 2 )
	{
		if ( written + (size_t)( held - 1 ) > capacity )
		{
			return -1;
		}
		bits <<= 6 * ( 4 - held );
		out[written++] = (uint8_t)( bits >> 16 );
		if ( held == 3 )
		{
			out[written++] = (uint8_t)( bits >> 8 );
		}
	}
	return (long)written;
}
