##gnnstream 1
@pg id=05fa2b06 prog=dcbm-gen version=0.1.0 seed=1 cmd="dcbm-gen -s 1 --count 2 --nodes 20 -t"
@graph id=0 nodes=20 edges=71 pg=05fa2b06 generator=dcbm seed=1 stream=0 K=6 p_div_q=5.78696 k=1.00539 gamma=3.48327 mean_degree_target=10.0539 p_in=1.83862 p_out=0.317718 theta_max=1.48277 mean_degree=7.1
0	3
0	7
0	9
0	10
0	11
0	12
0	18
1	2
1	6
1	13
1	15
1	16
1	18
2	6
2	7
2	9
2	13
2	16
2	19
3	8
3	11
3	12
3	17
3	18
4	5
4	6
4	8
4	9
4	10
4	15
5	6
5	8
5	9
6	7
6	9
6	12
6	17
7	8
7	11
7	14
7	15
7	17
7	19
8	10
8	11
8	12
8	14
8	15
8	17
8	18
9	11
10	13
10	15
10	17
10	18
11	12
11	17
11	18
12	18
12	19
13	15
13	16
13	18
14	16
14	18
14	19
15	17
15	18
17	18
17	19
18	19
@tensor id=0 name=cluster rows=20 cols=1 type=i32 columns=cluster pg=05fa2b06
0
1
1
0
3
3
3
4
5
3
5
0
0
1
2
5
1
4
5
4
@graph id=1 nodes=20 edges=118 pg=05fa2b06 generator=dcbm seed=1 stream=1 K=10 p_div_q=4.21674 k=1.24935 gamma=9.8129 mean_degree_target=12.4935 p_in=2.1107 p_out=0.500553 theta_max=1.23228 mean_degree=11.8
0	2
0	3
0	4
0	5
0	6
0	9
0	11
0	12
0	13
0	14
0	15
1	2
1	4
1	5
1	7
1	8
1	10
1	11
1	12
1	13
1	14
1	15
1	16
1	17
1	18
1	19
2	3
2	4
2	5
2	8
2	10
2	13
2	14
2	17
2	18
2	19
3	5
3	6
3	7
3	8
3	9
3	10
3	11
3	12
3	13
3	16
3	18
3	19
4	8
4	9
4	12
4	13
4	14
4	15
4	16
4	18
5	6
5	7
5	9
5	10
5	14
5	15
5	16
5	18
6	7
6	8
6	9
6	10
6	12
6	15
6	16
6	17
6	19
7	8
7	9
7	10
7	11
7	13
7	14
7	17
8	9
8	11
8	13
8	14
8	16
8	19
9	10
9	11
9	12
9	14
9	15
9	17
9	19
10	11
10	12
10	19
11	12
11	14
11	15
11	19
12	13
12	15
12	16
12	19
13	14
13	15
13	17
13	18
13	19
14	15
14	17
15	16
15	17
15	19
16	17
17	18
17	19
18	19
@tensor id=1 name=cluster rows=20 cols=1 type=i32 columns=cluster pg=05fa2b06
3
5
3
9
7
3
9
1
2
1
1
1
8
7
3
7
0
6
5
9
@end records=5 crc32=2a268f1c
