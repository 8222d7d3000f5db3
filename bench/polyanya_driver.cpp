// polyanya_driver.cpp - times Polyanya (Cui, Harabor, Grastien, IJCAI 2017) on a Moving AI
// scenario file, for bench/polyanya.sh. None of Polyanya's code is here: this file only calls
// its public API (Mesh, SearchInstance) and is compiled by bench/polyanya.sh against a checkout
// given as POLYANYA_DIR (the directory holding structs/, search/, helpers/, built with `make`).
//
//   polyanya_driver <mesh> <scen> <repeat> <every>
//
// Queries are cell centres: scenario corner (sx, sy) -> (sx + 0.5, sy + 0.5), the frame of
// Polyanya's gridmap2rects meshes (cell corners at integer coordinates, (0, 0) top-left).
// Every <every>-th scenario runs. One untimed pass records lengths and counts, then <repeat>
// timed passes; the fastest is reported. A query is timed whole: set_start_goal + search (which
// locates start and goal) + get_path_points. Output, one line per query then a summary:
//   q <index> <length %.17g> <popped> <pruned_post_pop> <search_us (Polyanya's own timer)> <expanded>
//   summary <queries> <best pass mean us> <mean popped> <mean expanded> <mean search_us> <fails>
// where expanded counts get_successors calls (intermediate nodes expanded past the heap too:
// what astar's path:stats().expanded counts) and popped the heap's pops.
#include "mesh.h"
#include "point.h"
#include "searchinstance.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using polyanya::Point;

struct Query
{
    int index;
    Point start, goal;
};

static double now_us()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

int main(int argc, char* argv[])
{
    if (argc != 5)
    {
        std::cerr << "usage: " << argv[0] << " <mesh> <scen> <repeat> <every>" << std::endl;
        return 1;
    }
    const int repeat = std::atoi(argv[3]);
    const int every = std::atoi(argv[4]);
    std::ifstream meshfile(argv[1]);
    if (!meshfile)
    {
        std::cerr << "cannot open " << argv[1] << std::endl;
        return 1;
    }
    polyanya::Mesh mesh(meshfile);
    polyanya::SearchInstance si(&mesh);

    std::ifstream scenfile(argv[2]);
    std::string line;
    std::vector<Query> queries;
    int index = 0;
    std::getline(scenfile, line);           // "version 1"
    while (std::getline(scenfile, line))
    {
        std::istringstream in(line);
        std::string bucket, map, w, h;
        double sx, sy, gx, gy;
        if (!(in >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy))
        {
            continue;
        }
        if (index % every == 0)
        {
            queries.push_back({index, {sx + 0.5, sy + 0.5}, {gx + 0.5, gy + 0.5}});
        }
        index++;
    }
    const int n = (int) queries.size();
    if (n == 0)
    {
        std::cerr << "no scenarios in " << argv[2] << std::endl;
        return 1;
    }

    std::vector<Point> path;
    double popped = 0, expanded = 0, search_us = 0;
    int fails = 0;
    for (const Query& q : queries)
    {
        si.set_start_goal(q.start, q.goal);
        si.search();
        si.get_path_points(path);
        const double cost = si.get_cost();
        if (cost < 0)
        {
            fails++;
        }
        popped += si.nodes_popped;
        expanded += si.successor_calls;
        search_us += si.get_search_micro();
        std::printf("q %d %.17g %d %d %.3f %d\n", q.index, cost, si.nodes_popped,
                    si.nodes_pruned_post_pop, si.get_search_micro(), si.successor_calls);
    }

    double best = 1e300;
    for (int r = 0; r < repeat; r++)
    {
        const double t0 = now_us();
        for (const Query& q : queries)
        {
            si.set_start_goal(q.start, q.goal);
            si.search();
            si.get_path_points(path);
        }
        const double t = now_us() - t0;
        if (t < best)
        {
            best = t;
        }
    }
    std::printf("summary %d %.3f %.1f %.1f %.3f %d\n", n, best / n, popped / n, expanded / n,
                search_us / n, fails);
    return 0;
}
