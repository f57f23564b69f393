##gnnstream 1
@pg id=0f70c635 prog=nodefeat version=0.1.0 seed=- cmd="nodefeat -t tests/fuzz/corpus/stream/dcbm-bin.gs"
@pg id=7835e5ce prog=dcbm-gen version=0.1.0 seed=2 cmd="dcbm-gen -s 2 --count 1 --nodes 15 -l 0"
@graph id=0 nodes=15 edges=12 pg=7835e5ce generator=dcbm seed=2 stream=0 K=7 p_div_q=3.90713 k=0.188063 gamma=8.19342 mean_degree_target=1.88063 p_in=0.344354 p_out=0.0881347 theta_max=1.28044 mean_degree=1.6
0	4
0	5
1	4
1	6
1	8
2	10
3	5
4	6
6	8
8	9
8	12
11	13
@tensor id=0 name=features rows=15 cols=4 type=f64 columns=degree,core,ci1,clustering pg=0f70c635 scale=minmax
0.5	0.5	0.21428571428571427	0
0.75	1	1	0.66666666666666663
0.25	0.5	0	0
0.25	0.5	0	0
0.75	1	0.7142857142857143	0.33333333333333331
0.5	0.5	0.071428571428571425	0
0.75	1	1	0.66666666666666663
0	0	0	0
1	1	0.8571428571428571	0.16666666666666666
0.25	0.5	0	0
0.25	0.5	0	0
0.25	0.5	0	0
0.25	0.5	0	0
0.25	0.5	0	0
0	0	0	0
@tensor id=0 name=features_raw rows=15 cols=4 type=f64 columns=degree,core,ci1,clustering pg=0f70c635
2	1	3	0
3	2	14	0.66666666666666663
1	1	0	0
1	1	0	0
3	2	10	0.33333333333333331
2	1	1	0
3	2	14	0.66666666666666663
0	0	0	0
4	2	12	0.16666666666666666
1	1	0	0
1	1	0	0
1	1	0	0
1	1	0	0
1	1	0	0
0	0	0	0
@tensor id=0 name=cluster rows=15 cols=1 type=i32 columns=cluster pg=7835e5ce
0
0
5
1
0
0
1
1
1
4
3
2
2
3
1
@end records=6 crc32=d60d49ba
