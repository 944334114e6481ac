// SPDX-License-Identifier: MIT
// What the level fuzz targets share to write a map from the fuzzer's bytes: a reader of the input's bytes as
// choices, a bounded text writer, and a read_file hook that serves the files written beside the map. Every
// function is static: each target includes this once.
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_CAPACITY 65536

typedef struct reader
{
	const uint8_t* data;
	size_t size, at;
} reader;

// The next choice; 0 once the input is used up.
static uint8_t next( reader* r )
{
	return r->at < r->size ? r->data[r->at++] : 0;
}

typedef struct writer
{
	char text[TEXT_CAPACITY];
	size_t length;
} writer;

// printf into the writer; text past its capacity is cut.
static void put( writer* w, const char* format, ... )
{
	if ( w->length >= sizeof( w->text ) - 1 )
	{
		return;
	}
	va_list args;
	va_start( args, format );
	int n = vsnprintf( w->text + w->length, sizeof( w->text ) - w->length, format, args );
	va_end( args );
	if ( n > 0 )
	{
		w->length += (size_t)n;
		w->length = w->length < sizeof( w->text ) - 1 ? w->length : sizeof( w->text ) - 1;
	}
}

// A file the loader may ask for: its path, or every path under a folder when the path ends with '/'.
typedef struct fuzz_file
{
	const char* path;
	const writer* text;
} fuzz_file;

// The loader's read_file hook; user is an array of fuzz_file ended by one with a NULL path.
static bool fuzz_read_file( const char* path, void* user, char** data, size_t* size )
{
	for ( const fuzz_file* f = user; f->path != NULL; ++f )
	{
		size_t n = strlen( f->path );
		bool match = n > 0 && f->path[n - 1] == '/' ? strncmp( path, f->path, n ) == 0 : strcmp( path, f->path ) == 0;
		if ( match == false )
		{
			continue;
		}
		*data = malloc( f->text->length + 1 );
		if ( *data == NULL )
		{
			return false;
		}
		memcpy( *data, f->text->text, f->text->length );
		*size = f->text->length;
		return true;
	}
	return false;
}
